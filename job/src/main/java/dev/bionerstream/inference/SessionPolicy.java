package dev.bionerstream.inference;

import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.OrtSession.SessionOptions.OptLevel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a session runs, as {@link #apply} sets it on ONNX Runtime's session options from the job's
 * {@link InferenceOptions}: graph optimisation, intra- and inter-op threads, whether idle threads
 * spin, and the execution provider (CUDA falls back to CPU, with a log line, where it cannot start).
 *
 * @param threads intra-op threads
 * @param spinning whether ONNX Runtime's idle intra-op threads spin
 * @param device where the model runs: the CUDA device asked for, or the CPU
 */
record SessionPolicy(int threads, boolean spinning, Device device) {
    private static final Logger LOG = LoggerFactory.getLogger(SessionPolicy.class);

    static SessionPolicy apply(InferenceOptions options, OrtSession.SessionOptions so) throws OrtException {
        so.setOptimizationLevel(optLevel(options.optimization()));
        int threads = options.intraOpThreads() > 0
                ? options.intraOpThreads()
                : Runtime.getRuntime().availableProcessors();
        so.setIntraOpNumThreads(threads);
        boolean spinning = threads < Runtime.getRuntime().availableProcessors();
        if (!spinning) {
            // ORT's idle intra-op threads spin on their core, waiting for the next operator or run.
            // When they take every core, that is CPU the rest of the process needs (in a streaming
            // job: Flink's tasks, Kafka clients, the delivery of results), and taking it back
            // preempts the model's own threads mid-operator. On the 2-core development machine
            // under load, the bare session ran 14% faster without spinning (4 alternating rounds).
            so.addConfigEntry("session.intra_op.allow_spinning", "0");
        }
        if (options.interOpThreads() > 0) {
            so.setInterOpNumThreads(options.interOpThreads());
        }
        Device device = Device.CPU;
        if (options.device().cuda()) {
            try {
                so.addCUDA(options.device().id());
                device = options.device();
            } catch (OrtException | RuntimeException | LinkageError e) {
                LOG.warn(
                        "CUDA device {} unavailable ({}); running the model on CPU",
                        options.device().id(),
                        e.getMessage());
            }
        }
        return new SessionPolicy(threads, spinning, device);
    }

    /** The execution provider's name: "CPU" or "CUDA:N". */
    String provider() {
        return device.cuda() ? "CUDA:" + device.id() : "CPU";
    }

    private static OptLevel optLevel(GraphOptimization level) {
        return switch (level) {
            case NONE -> OptLevel.NO_OPT;
            case BASIC -> OptLevel.BASIC_OPT;
            case EXTENDED -> OptLevel.EXTENDED_OPT;
            case ALL -> OptLevel.ALL_OPT;
        };
    }
}
