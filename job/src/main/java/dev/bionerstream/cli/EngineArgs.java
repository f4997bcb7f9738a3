package dev.bionerstream.cli;

import static dev.bionerstream.serving.ServingOptions.*;

import dev.bionerstream.options.CommandLineFlags;
import dev.bionerstream.serving.BundleChoice;
import dev.bionerstream.serving.LocalModel;
import dev.bionerstream.serving.ServingConfig;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The model options of every command that runs the model: the job's {@code model.*} and
 * {@code batch.max-size} options ({@link dev.bionerstream.serving.ServingOptions}), each also under
 * a short name.
 */
final class EngineArgs {
    private static final Map<ConfigOption<?>, String> SHORT_NAMES = shortNames();

    private final CommandSpec spec;

    /** Reads the options {@link Flags} gave the command {@code spec}. */
    EngineArgs(CommandSpec spec) {
        this.spec = spec;
    }

    /** Gives a command the model options: {@code @Command(modelTransformer = EngineArgs.Flags.class)}. */
    static final class Flags implements IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec spec) {
            SHORT_NAMES.forEach((option, name) -> spec.addOption(CommandLineFlags.of(option, name)));
            return spec;
        }
    }

    /** The options given, under the job's keys; those not given read as the job's defaults. */
    Configuration toConfiguration() {
        return CommandLineFlags.given(spec, SHORT_NAMES.keySet());
    }

    /**
     * The model on this machine, extracting only {@code types} whatever --entity-types says; when
     * empty, the ones --entity-types names (all when unset).
     */
    LocalModel open(List<String> types) {
        Configuration c = toConfiguration();
        if (!types.isEmpty()) {
            c.set(ENTITY_TYPES, String.join(",", types));
        }
        return LocalModel.open(ServingConfig.from(c, BundleChoice.ofThisInstallation()));
    }

    LocalModel open() {
        return open(List.of());
    }

    private static Map<ConfigOption<?>, String> shortNames() {
        Map<ConfigOption<?>, String> m = new LinkedHashMap<>();
        m.put(BUNDLE, "--bundle");
        m.put(DEVICE, "--device");
        m.put(THREADS, "--threads");
        m.put(RUNNERS, "--runners");
        m.put(OPTIMIZATION, "--optimization");
        m.put(BATCH_MAX_SIZE, "--batch-size");
        m.put(ENTITY_TYPES, "--entity-types");
        m.put(GATE, "--gate");
        m.put(CORPUS, "--corpus");
        m.put(GENE_SPANS, "--gene-spans");
        return m;
    }
}
