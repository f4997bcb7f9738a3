package dev.bionerstream.serving;

import dev.bionerstream.engine.MrcEngine;
import dev.bionerstream.model.ModelBundle;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.Optional;

/** Opens the engine a JVM shares; serializable so Flink functions can carry it to TaskManagers. */
@FunctionalInterface
public interface EngineFactory extends Serializable {
    MrcEngine open(ServingConfig config);

    /** The bundle named by the config (or the one in the jar) on ONNX Runtime. */
    EngineFactory ONNX_RUNTIME = c -> MrcEngine.open(
            ModelBundle.loadOrDefault(Optional.ofNullable(c.bundle()).map(Path::of)), c.inference(), c.batchMaxSize(), c.entityTypes());
}
