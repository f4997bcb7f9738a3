package dev.bionerstream.serving;

import dev.bionerstream.inference.InferenceOptions;
import dev.bionerstream.inference.MrcSession;
import dev.bionerstream.inference.OrtMrcSession;
import dev.bionerstream.model.ModelBundle;
import java.io.Serializable;

/** Opens the model session a JVM shares; serializable so Flink functions can carry it to TaskManagers. */
@FunctionalInterface
public interface SessionFactory extends Serializable {
    MrcSession open(ModelBundle bundle, InferenceOptions options);

    /** The bundle's ONNX graph on ONNX Runtime (CUDA or CPU as the options say). */
    SessionFactory ONNX_RUNTIME = OrtMrcSession::open;
}
