package dev.bionerstream.cli;

import dev.bionerstream.engine.MrcEngine;
import dev.bionerstream.inference.Device;
import dev.bionerstream.inference.InferenceOptions;
import dev.bionerstream.model.ModelBundle;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Option;

/** Options shared by the commands that run the engine. */
final class EngineArgs {
    @Option(names = "--bundle", description = "model bundle directory (default: the bundle in the jar)")
    Path bundle;

    @Option(names = "--device", defaultValue = "cpu", description = "cpu or cuda:N (falls back to cpu). Default: ${DEFAULT-VALUE}")
    String device;

    @Option(names = "--threads", defaultValue = "0", description = "ONNX Runtime intra-op threads, 0 = all cores")
    int threads;

    @Option(names = "--batch-size", defaultValue = "16", description = "windows per model call. Default: ${DEFAULT-VALUE}")
    int batchSize;

    @Option(names = "--optimization", defaultValue = "all", description = "graph optimisation: none, basic, extended, all")
    String optimization;

    ModelBundle loadBundle() {
        return ModelBundle.loadOrDefault(Optional.ofNullable(bundle));
    }

    InferenceOptions inference() {
        return new InferenceOptions(Device.parse(device), threads, 1, optimization);
    }

    MrcEngine openEngine() {
        return openEngine(List.of());
    }

    MrcEngine openEngine(List<String> types) {
        return MrcEngine.open(loadBundle(), inference(), batchSize, types);
    }
}
