package dev.bionerstream.inference;

/**
 * How the ONNX Runtime session runs.
 *
 * @param device cpu or cuda:N; CUDA falls back to CPU (with a log line) where it cannot start
 * @param intraOpThreads threads inside one operator; 0 = all cores of the machine the session runs on
 * @param interOpThreads threads across operators; 0 lets ONNX Runtime choose
 * @param optimization how far ONNX Runtime optimises the graph
 */
public record InferenceOptions(Device device, int intraOpThreads, int interOpThreads, GraphOptimization optimization)
        implements java.io.Serializable {
    public static InferenceOptions cpu(int threads) {
        return new InferenceOptions(Device.CPU, threads, 1, GraphOptimization.ALL);
    }
}
