package dev.bionerstream.inference;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.model.BundleException;
import dev.bionerstream.model.ModelBundle;
import dev.bionerstream.nativelib.LibraryThread;
import java.lang.invoke.MethodType;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bundle's model in ONNX Runtime: opened on a {@link LibraryThread} as {@link SessionPolicy}
 * sets it and checked against the bundle's {@link GraphContract}; a batch runs as {@link
 * BatchTensors} (padded to its longest window) and comes back as the contract reads the outputs.
 */
public final class OrtMrcSession implements MrcSession {
    private static final Logger LOG = LoggerFactory.getLogger(OrtMrcSession.class);

    private final OrtEnvironment env;
    private final OrtSession session;
    private final GraphContract graph;
    private final SessionPolicy policy;
    private volatile boolean closed;

    private OrtMrcSession(OrtEnvironment env, OrtSession session, GraphContract graph, SessionPolicy policy) {
        this.env = env;
        this.session = session;
        this.graph = graph;
        this.policy = policy;
    }

    public static OrtMrcSession open(ModelBundle bundle, InferenceOptions options) {
        try {
            environment();
            return LibraryThread.call(OrtSession.class, () -> openHere(bundle, options));
        } catch (OrtException e) {
            throw new BundleException(
                    bundle.source() + "/model.onnx cannot be loaded by ONNX Runtime: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("cannot create the ONNX Runtime session: " + e, e);
        }
    }

    /**
     * The JVM's ONNX Runtime environment, created (the first time) outside this job's classes: its
     * shutdown-hook thread would otherwise keep the job's class loader (see {@link LibraryThread}).
     */
    static OrtEnvironment environment() throws OrtException {
        try {
            return (OrtEnvironment) LibraryThread.callStatic(
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
            SessionPolicy policy = SessionPolicy.apply(options, so);
            OrtSession session = env.createSession(bundle.modelBytes(), so);
            GraphContract graph = GraphContract.of(bundle.manifest());
            graph.check(bundle, session);
            LOG.info(
                    "Model {} runs on {} (intra-op threads {}{}, optimisation {})",
                    bundle.manifest().id(),
                    policy.provider(),
                    policy.threads(),
                    policy.spinning() ? "" : ", not spinning",
                    options.optimization());
            return new OrtMrcSession(env, session, graph, policy);
        }
    }

    @Override
    public List<WindowLogits> run(List<MrcWindow> batch) {
        if (closed) {
            throw new IllegalStateException("session is closed");
        }
        if (batch.isEmpty()) {
            return List.of();
        }
        boolean gated = graph.gated(batch);
        try (BatchTensors inputs = BatchTensors.of(env, batch);
                OrtSession.Result result = session.run(inputs.feeds(), graph.outputs(gated))) {
            return graph.logits(result, batch, inputs.length(), gated);
        } catch (OrtException e) {
            throw new IllegalStateException(
                    "ONNX Runtime failed on a batch of " + batch.size() + " x " + BatchTensors.paddedLength(batch)
                            + ": " + e.getMessage(),
                    e);
        }
    }

    @Override
    public String provider() {
        return policy.provider();
    }

    @Override
    public Device device() {
        return policy.device();
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
