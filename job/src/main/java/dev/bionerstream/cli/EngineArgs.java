package dev.bionerstream.cli;

import static dev.bionerstream.serving.ServingOptions.*;

import dev.bionerstream.serving.BundleChoice;
import dev.bionerstream.serving.LocalModel;
import dev.bionerstream.serving.ServingConfig;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import picocli.CommandLine.Option;

/**
 * The model options of every command, named as the job's {@code model.*} and {@code batch.*}
 * options (the short names are aliases); defaults come from {@link ServingDefaults}.
 */
final class EngineArgs {
    @Option(
            names = {"--bundle", "--model.bundle"},
            description = "model bundle directory, or jar for the float16 bundle in the jar (default: on a CPU the "
                    + "repository's int8 bundle, bundles/default-int8; on CUDA the jar's)")
    String bundle;

    @Option(
            names = {"--device", "--model.device"},
            description = "cpu or cuda:N (falls back to cpu). Default: ${DEFAULT-VALUE}")
    String device;

    @Option(
            names = {"--threads", "--model.threads"},
            description = "ONNX Runtime intra-op threads, 0 = all cores. Default: ${DEFAULT-VALUE}")
    int threads;

    @Option(
            names = {"--runners", "--model.runners"},
            description = "model batches run side by side, each on its own thread with --threads ONNX Runtime threads; "
                    + "0 = one per core, each with one thread, on a CPU left at --threads 0, else 1. "
                    + "Default: ${DEFAULT-VALUE}")
    int runners;

    @Option(
            names = {"--optimization", "--model.optimization"},
            description = "graph optimisation: none, basic, extended, all. Default: ${DEFAULT-VALUE}")
    String optimization;

    @Option(
            names = {"--batch-size", "--batch.max-size"},
            description = "windows per model call. Default: ${DEFAULT-VALUE}")
    int batchSize;

    @Option(
            names = {"--entity-types", "--model.entity-types"},
            description = "types to extract, comma-separated (default: all of the bundle's)")
    String entityTypes;

    @Option(
            names = {"--gate", "--model.gate"},
            description = "presence gate: bundle (as the bundle's measurement says), on, off or a threshold in (0, 1). "
                    + "Default: ${DEFAULT-VALUE}")
    String gate;

    @Option(
            names = {"--corpus", "--model.corpus"},
            description = "bundles with corpus tags: TYPE=CORPUS,... whose conventions each type follows "
                    + "(default: the bundle's per type)")
    String corpus;

    /**
     * These options under the job's keys, for a job the command starts (demo); {@code model.bundle}
     * only when given, since {@link BundleChoice} decides what an unset one serves.
     */
    Configuration toConfiguration() {
        Configuration c = new Configuration();
        if (bundle != null) {
            c.set(BUNDLE, bundle);
        }
        if (entityTypes != null) {
            c.set(ENTITY_TYPES, entityTypes);
        }
        c.set(DEVICE, device);
        c.set(THREADS, threads);
        c.set(RUNNERS, runners);
        c.set(OPTIMIZATION, optimization);
        c.set(BATCH_MAX_SIZE, batchSize);
        c.set(GATE, gate);
        if (corpus != null) {
            c.set(CORPUS, corpus);
        }
        return c;
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
}
