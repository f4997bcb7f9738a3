package dev.bionerstream.serving;

import dev.bionerstream.batching.MicroBatcher;
import dev.bionerstream.engine.MrcEngine;
import java.util.HashMap;
import java.util.Map;

/**
 * One engine, one model session and one micro-batcher per JVM, config and kind of session factory,
 * shared by all subtasks of a TaskManager and released when the last user closes its lease. (A job
 * has one factory; a test's stand-in model is not handed to a job beside it that asked for ONNX
 * Runtime with the same config.) One ONNX Runtime CUDA session
 * per process also avoids the unbounded GPU-memory growth of several sessions (onnxruntime issue
 * 29351). A broken model is replaced for the next user that acquires one.
 */
public final class SharedModels {
    private static final SharedModels JVM = new SharedModels();

    private final Map<Key, Entry> models = new HashMap<>();

    /** A factory by its class: each subtask deserializes its own copy of the job's. */
    private record Key(ServingConfig config, Class<? extends SessionFactory> factory) {}

    /** A registry of its own, sharing nothing with the JVM's (tests). */
    public SharedModels() {}

    /** The registry the job's operators share: one per JVM (per TaskManager). Tests make their own. */
    public static SharedModels jvm() {
        return JVM;
    }

    private static final class Entry {
        final ServedModel model;
        final MicroBatcher batcher;
        int users;

        Entry(ServedModel model, MicroBatcher batcher) {
            this.model = model;
            this.batcher = batcher;
        }
    }

    /** A subtask's handle on the shared model; close it in the operator's close(). */
    public final class Lease implements AutoCloseable {
        private final Key key;
        private final Entry entry;
        private boolean closed;

        private Lease(Key key, Entry entry) {
            this.key = key;
            this.entry = entry;
        }

        public MrcEngine engine() {
            return entry.model.engine();
        }

        public MicroBatcher batcher() {
            return entry.batcher;
        }

        @Override
        public void close() {
            synchronized (models) {
                if (closed) {
                    return;
                }
                closed = true;
                if (--entry.users == 0) {
                    models.remove(key, entry);
                    entry.batcher.close(entry.model::close);
                }
            }
        }
    }

    /** The shared model of {@code config}, opened with {@code factory} if this registry has none (or a broken one). */
    public Lease acquire(ServingConfig config, SessionFactory factory) {
        synchronized (models) {
            Key key = new Key(config, factory.getClass());
            Entry e = models.get(key);
            if (e == null || e.batcher.isBroken()) {
                ServedModel model = ServedModel.open(config, factory);
                e = new Entry(
                        model,
                        new MicroBatcher(
                                model.session(), config.batching(model.session().device()), config.runnersHere()));
                models.put(key, e);
            }
            e.users++;
            return new Lease(key, e);
        }
    }
}
