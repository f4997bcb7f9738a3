package dev.bionerstream.serving;

import dev.bionerstream.inference.InferenceOptions;
import dev.bionerstream.inference.MrcSession;
import dev.bionerstream.inference.OrtMrcSession;
import dev.bionerstream.model.ModelBundle;
import java.io.Serializable;

/**
 * Opens the model session a JVM shares; serializable so Flink functions can carry it to TaskManagers.
 * {@link SharedModels} tells factories apart by their class, which a deserialized copy keeps.
 */
@FunctionalInterface
public interface SessionFactory extends Serializable {
    MrcSession open(ModelBundle bundle, InferenceOptions options);

    /** The bundle's ONNX graph on ONNX Runtime (CUDA or CPU as the options say). */
    SessionFactory ONNX_RUNTIME = OnnxRuntime.SESSIONS;

    /**
     * {@link #ONNX_RUNTIME}: a class of its own rather than a method reference, whose deserialized
     * copies (in every subtask) would be of another class than the constant a caller in the same JVM
     * holds ({@code bench --stream} leases the job's model with it).
     */
    enum OnnxRuntime implements SessionFactory {
        SESSIONS;

        @Override
        public MrcSession open(ModelBundle bundle, InferenceOptions options) {
            return OrtMrcSession.open(bundle, options);
        }
    }
}
