package dev.bionerstream.serving;

import dev.bionerstream.engine.MrcEngine;
import java.util.HashMap;
import java.util.Map;

/**
 * One engine and one micro-batcher per JVM and config, shared by all subtasks of a TaskManager
 * and released when the last user closes its lease. One ONNX Runtime CUDA session per process
 * also avoids the unbounded GPU-memory growth of several sessions (onnxruntime issue 29351).
 */
public final class SharedModels {
    private static final Map<ServingConfig, Entry> MODELS = new HashMap<>();

    private SharedModels() {}

    private static final class Entry {
        final MrcEngine engine;
        final MicroBatcher batcher;
        int users;

        Entry(MrcEngine engine, MicroBatcher batcher) {
            this.engine = engine;
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
                    MODELS.remove(config);
                    entry.batcher.close();
                    entry.engine.close();
                }
            }
        }
    }

    /** The shared model of {@code config}, opened by {@code factory} if this JVM has none yet. */
    public static Lease acquire(ServingConfig config, EngineFactory factory) {
        synchronized (MODELS) {
            Entry e = MODELS.get(config);
            if (e == null) {
                MrcEngine engine = factory.open(config);
                e = new Entry(engine, new MicroBatcher(engine.session(), config.batchMaxSize(), config.batchMaxWait()));
                MODELS.put(config, e);
            }
            e.users++;
            return new Lease(config, e);
        }
    }
}
