package dev.bionerstream.inference;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.OrtSession.SessionOptions.OptLevel;
import dev.bionerstream.features.LibraryContext;
import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.model.BundleException;
import dev.bionerstream.model.BundleManifest;
import dev.bionerstream.model.BundleSyntax;
import dev.bionerstream.model.ModelBundle;
import java.lang.invoke.MethodType;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bundle's model in ONNX Runtime. A batch is padded to its longest window (dynamic padding);
 * the caller sorts by length so padding stays small.
 */
public final class OrtMrcSession implements MrcSession {
    private static final Logger LOG = LoggerFactory.getLogger(OrtMrcSession.class);
    static final List<String> INPUTS = List.of("input_ids", "attention_mask", "token_type_ids");

    private final OrtEnvironment env;
    private final OrtSession session;
    private final String startOutput;
    private final String endOutput;
    private final String presenceOutput; // null: the bundle has no presence gate
    private final String provider;
    private volatile boolean closed;

    private OrtMrcSession(
            OrtEnvironment env, OrtSession session, String start, String end, String presence, String provider) {
        this.env = env;
        this.session = session;
        this.startOutput = start;
        this.endOutput = end;
        this.presenceOutput = presence;
        this.provider = provider;
    }

    public static OrtMrcSession open(ModelBundle bundle, InferenceOptions options) {
        try {
            environment();
            return onLargeStack(() -> openHere(bundle, options));
        } catch (OrtException e) {
            throw new BundleException(
                    bundle.source() + "/model.onnx cannot be loaded by ONNX Runtime: " + e.getMessage(), e);
        }
    }

    /**
     * The JVM's ONNX Runtime environment, created (the first time) outside this job's classes: its
     * shutdown-hook thread would otherwise keep the job's class loader (see {@link LibraryContext}).
     */
    static OrtEnvironment environment() throws OrtException {
        try {
            return (OrtEnvironment) LibraryContext.callStatic(
                    OrtEnvironment.class, "getEnvironment", MethodType.methodType(OrtEnvironment.class));
        } catch (OrtException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("cannot create the ONNX Runtime environment: " + e, e);
        }
    }

    private static OrtMrcSession openHere(ModelBundle bundle, InferenceOptions options) throws OrtException {
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        try (OrtSession.SessionOptions so = new OrtSession.SessionOptions()) {
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
            String provider = "CPU";
            if (options.device().cuda()) {
                try {
                    so.addCUDA(options.device().id());
                    provider = "CUDA:" + options.device().id();
                } catch (OrtException | RuntimeException | LinkageError e) {
                    LOG.warn(
                            "CUDA device {} unavailable ({}); running the model on CPU",
                            options.device().id(),
                            e.getMessage());
                }
            }
            OrtSession session = env.createSession(bundle.modelBytes(), so);
            String start = bundle.manifest().startOutput();
            String end = bundle.manifest().endOutput();
            String presence = bundle.manifest().presenceOutput().orElse(null);
            checkGraph(bundle, session, start, end, presence);
            LOG.info(
                    "Model {} runs on {} (intra-op threads {}{}, optimisation {})",
                    bundle.manifest().id(),
                    provider,
                    threads,
                    spinning ? "" : ", not spinning",
                    options.optimization());
            return new OrtMrcSession(env, session, start, end, presence, provider);
        }
    }

    /** Native stack for loading ONNX Runtime and creating the session. */
    private static final long SESSION_STACK_BYTES = 64L << 20;

    private interface OrtCall<T> {
        T call() throws OrtException;
    }

    /**
     * Runs {@code call} on a thread with a large stack. Without it, opening the default model on a
     * JVM main or Flink task thread (1 MB stacks) can kill the JVM with SIGSEGV: seen with ORT 1.29
     * on Linux x86-64, where the same call on a 4 MB stack succeeds.
     */
    private static <T> T onLargeStack(OrtCall<T> call) throws OrtException {
        Object[] result = new Object[1];
        Throwable[] error = new Throwable[1];
        Thread t = new Thread(
                null,
                () -> {
                    try {
                        result[0] = call.call();
                    } catch (Throwable e) {
                        error[0] = e;
                    }
                },
                "ort-session-open",
                SESSION_STACK_BYTES);
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating the ONNX Runtime session", e);
        }
        if (error[0] instanceof OrtException oe) {
            throw oe;
        }
        if (error[0] instanceof RuntimeException re) {
            throw re;
        }
        if (error[0] != null) {
            throw new IllegalStateException(error[0]);
        }
        @SuppressWarnings("unchecked")
        T value = (T) result[0];
        return value;
    }

    private static void checkGraph(ModelBundle bundle, OrtSession session, String start, String end, String presence)
            throws OrtException {
        Set<String> inputs = session.getInputNames();
        Set<String> outputs = session.getOutputNames();
        List<String> expected = presence == null ? List.of(start, end) : List.of(start, end, presence);
        List<String> expectedInputs = inputs(bundle.manifest());
        if (!inputs.equals(Set.copyOf(expectedInputs)) || !outputs.containsAll(expected)) {
            session.close();
            throw new BundleException(String.format(
                    "%s/model.onnx has inputs %s and outputs %s; expected inputs %s and outputs %s",
                    bundle.source(), inputs, outputs, expectedInputs, expected));
        }
    }

    /** The graph inputs a bundle's model takes: the ids, and two per syntax kind the manifest declares. */
    static List<String> inputs(BundleManifest manifest) {
        List<String> names = new ArrayList<>(INPUTS);
        if (manifest.syntax() != null) {
            for (BundleSyntax.Kind k : manifest.syntax().kinds()) {
                names.add(BundleSyntax.positionsInput(k.kind()));
                names.add(BundleSyntax.labelsInput(k.kind()));
            }
        }
        return names;
    }

    private static OptLevel optLevel(GraphOptimization level) {
        return switch (level) {
            case NONE -> OptLevel.NO_OPT;
            case BASIC -> OptLevel.BASIC_OPT;
            case EXTENDED -> OptLevel.EXTENDED_OPT;
            case ALL -> OptLevel.ALL_OPT;
        };
    }

    @Override
    public List<WindowLogits> run(List<MrcWindow> batch) {
        if (closed) {
            throw new IllegalStateException("session is closed");
        }
        if (batch.isEmpty()) {
            return List.of();
        }
        int b = batch.size();
        int n = batch.stream().mapToInt(MrcWindow::length).max().orElseThrow();
        long[] ids = new long[b * n];
        long[] mask = new long[b * n];
        long[] types = new long[b * n];
        for (int i = 0; i < b; i++) {
            MrcWindow w = batch.get(i);
            System.arraycopy(w.inputIds(), 0, ids, i * n, w.length());
            System.arraycopy(w.tokenTypeIds(), 0, types, i * n, w.length());
            java.util.Arrays.fill(mask, i * n, i * n + w.length(), 1L);
        }
        long[] shape = {b, n};
        boolean gated = batch.stream().anyMatch(MrcWindow::isGate);
        if (gated && presenceOutput == null) {
            throw new IllegalArgumentException("a presence gate window, but the bundle has no presence gate output");
        }
        try (SyntaxTensors syntax = SyntaxTensors.of(env, batch, n);
                OnnxTensor tIds = OnnxTensor.createTensor(env, LongBuffer.wrap(ids), shape);
                OnnxTensor tMask = OnnxTensor.createTensor(env, LongBuffer.wrap(mask), shape);
                OnnxTensor tTypes = OnnxTensor.createTensor(env, LongBuffer.wrap(types), shape);
                OrtSession.Result result = session.run(
                        feeds(tIds, tMask, tTypes, syntax),
                        gated ? Set.of(startOutput, endOutput, presenceOutput) : Set.of(startOutput, endOutput))) {
            FloatBuffer start = ((OnnxTensor) result.get(startOutput).orElseThrow()).getFloatBuffer();
            FloatBuffer end = ((OnnxTensor) result.get(endOutput).orElseThrow()).getFloatBuffer();
            OnnxTensor presenceTensor =
                    gated ? (OnnxTensor) result.get(presenceOutput).orElseThrow() : null;
            // getFloatBuffer copies the tensor: once per batch, not once per gate window
            FloatBuffer presence = gated ? presenceTensor.getFloatBuffer() : null;
            int entityTypes = gated ? (int) presenceTensor.getInfo().getShape()[2] : 0;
            List<WindowLogits> out = new ArrayList<>(b);
            for (int i = 0; i < b; i++) {
                MrcWindow w = batch.get(i);
                int len = w.contextLength();
                out.add(new WindowLogits(
                        slice(start, (i * n + 1) * 2, len * 2),
                        slice(end, (i * n + 1) * 2, len * 2),
                        w.isGate() ? maxOverContext(presence, entityTypes, i, n, len) : null));
            }
            return out;
        } catch (OrtException e) {
            throw new IllegalStateException(
                    "ONNX Runtime failed on a batch of " + b + " x " + n + ": " + e.getMessage(), e);
        }
    }

    private static Map<String, OnnxTensor> feeds(
            OnnxTensor ids, OnnxTensor mask, OnnxTensor types, SyntaxTensors syntax) {
        Map<String, OnnxTensor> feeds = new HashMap<>();
        feeds.put("input_ids", ids);
        feeds.put("attention_mask", mask);
        feeds.put("token_type_ids", types);
        feeds.putAll(syntax.tensors());
        return feeds;
    }

    /** Per type, the highest presence logit of window {@code i}'s context positions 1..len. */
    private static float[] maxOverContext(FloatBuffer values, int k, int i, int n, int len) {
        float[] max = new float[k];
        java.util.Arrays.fill(max, Float.NEGATIVE_INFINITY);
        for (int pos = 1; pos <= len; pos++) {
            int base = (i * n + pos) * k;
            for (int t = 0; t < k; t++) {
                max[t] = Math.max(max[t], values.get(base + t));
            }
        }
        return max;
    }

    private static float[] slice(FloatBuffer buffer, int offset, int length) {
        float[] out = new float[length];
        buffer.get(offset, out);
        return out;
    }

    @Override
    public String provider() {
        return provider;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            try {
                session.close();
            } catch (OrtException e) {
                LOG.warn("closing the ONNX Runtime session failed", e);
            }
        }
    }
}
