package dev.bionerstream.serving;

import dev.bionerstream.engine.MrcEngine;
import dev.bionerstream.inference.MrcSession;
import dev.bionerstream.model.ModelBundle;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One engine, one model session and one micro-batcher per JVM and config, shared by all subtasks of
 * a TaskManager and released when the last user closes its lease. One ONNX Runtime CUDA session
 * per process also avoids the unbounded GPU-memory growth of several sessions (onnxruntime issue
 * 29351). A broken model is replaced for the next user that acquires one.
 */
public final class SharedModels {
    private static final Map<ServingConfig, Entry> MODELS = new HashMap<>();

    private SharedModels() {}

    private static final class Entry {
        final MrcEngine engine;
        final MrcSession session;
        final MicroBatcher batcher;
        int users;

        Entry(MrcEngine engine, MrcSession session, MicroBatcher batcher) {
            this.engine = engine;
            this.session = session;
            this.batcher = batcher;
        }
    }

    /** A subtask's handle on the shared model; close it in the operator's close(). */
    public static final class Lease implements AutoCloseable {
        private final ServingConfig config;
        private final Entry entry;
        private boolean closed;

        private Lease(ServingConfig config, Entry entry) {
            this.config = config;
            this.entry = entry;
        }

        public MrcEngine engine() {
            return entry.engine;
        }

        public MicroBatcher batcher() {
            return entry.batcher;
        }

        @Override
        public void close() {
            synchronized (MODELS) {
                if (closed) {
                    return;
                }
                closed = true;
                if (--entry.users == 0) {
                    MODELS.remove(config, entry);
                    entry.batcher.close();
                    entry.session.close();
                    entry.engine.close();
                }
            }
        }
    }

    /** What the batcher of {@code config} in this JVM has run so far, if it is open (for benchmarks on a local cluster). */
    public static Optional<BatchStats.Counts> batchStats(ServingConfig config) {
        synchronized (MODELS) {
            return Optional.ofNullable(MODELS.get(config))
                    .map(e -> e.batcher.stats().snapshot());
        }
    }

    /** Where the model thread of {@code config} in this JVM has spent its time, if it is open (for benchmarks). */
    public static Optional<ModelThreadTimes.Snapshot> modelThreadTimes(ServingConfig config) {
        synchronized (MODELS) {
            return Optional.ofNullable(MODELS.get(config))
                    .map(e -> e.batcher.times().snapshot());
        }
    }

    /** The shared model of {@code config}, opened with {@code factory} if this JVM has none (or a broken one). */
    public static Lease acquire(ServingConfig config, SessionFactory factory) {
        synchronized (MODELS) {
            Entry e = MODELS.get(config);
            if (e == null || e.batcher.isBroken()) {
                ModelBundle bundle = config.loadBundle();
                MrcEngine engine = new MrcEngine(
                        bundle,
                        config.entityTypes(),
                        config.gate(),
                        config.corpora()); // checks them before loading the model
                MrcSession session;
                try {
                    session = factory.open(bundle, config.inferenceHere());
                } catch (RuntimeException failed) {
                    engine.close();
                    throw failed;
                }
                e = new Entry(
                        engine,
                        session,
                        new MicroBatcher(
                                session,
                                config.batchMaxSize(),
                                config.batchMaxWait(),
                                config.maxWindowsPerDocument(),
                                config.runnersHere()));
                MODELS.put(config, e);
            }
            e.users++;
            return new Lease(config, e);
        }
    }
}
