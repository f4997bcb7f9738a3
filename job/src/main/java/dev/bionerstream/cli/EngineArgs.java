package dev.bionerstream.cli;

import static dev.bionerstream.serving.ServingOptions.*;

import dev.bionerstream.options.CommandLineFlags;
import dev.bionerstream.options.CommandLineFlags.Flag;
import dev.bionerstream.serving.BundleChoice;
import dev.bionerstream.serving.LocalModel;
import dev.bionerstream.serving.ServingConfig;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The model options of every command that runs the model: the job's {@code model.*} and
 * {@code batch.max-size} options ({@link dev.bionerstream.serving.ServingOptions}), each also under
 * a short name.
 */
final class EngineArgs {
    /** The model's flags, for a command's {@link CommandLineFlags.Settings}. */
    static final List<Flag> FLAGS = List.of(
            Flag.of(BUNDLE, "--bundle"),
            Flag.of(DEVICE, "--device"),
            Flag.of(THREADS, "--threads"),
            Flag.of(RUNNERS, "--runners"),
            Flag.of(OPTIMIZATION, "--optimization"),
            Flag.of(BATCH_MAX_SIZE, "--batch-size"),
            Flag.of(ENTITY_TYPES, "--entity-types"),
            Flag.of(GATE, "--gate"),
            Flag.of(CORPUS, "--corpus"),
            Flag.of(GENE_SPANS, "--gene-spans"));

    private final Configuration given;

    /** The model options the command line gave the command {@code spec}. */
    EngineArgs(CommandSpec spec) {
        this.given = CommandLineFlags.given(spec);
    }

    /**
     * The model on this machine, extracting only {@code types} whatever --entity-types says; when
     * empty, the ones --entity-types names (all when unset).
     */
    LocalModel open(List<String> types) {
        Configuration c = given.clone();
        if (!types.isEmpty()) {
            c.set(ENTITY_TYPES, String.join(",", types));
        }
        return LocalModel.open(ServingConfig.from(c, BundleChoice.ofThisInstallation()));
    }

    LocalModel open() {
        return open(List.of());
    }
}
