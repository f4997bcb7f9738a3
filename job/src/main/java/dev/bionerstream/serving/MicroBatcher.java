package dev.bionerstream.serving;

import dev.bionerstream.engine.BatchSize;
import dev.bionerstream.engine.WindowResult;
import dev.bionerstream.engine.WindowRunner;
import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.inference.MrcSession;
import dev.bionerstream.inference.WindowLogits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * One model-calling thread fed by any number of callers: windows from every subtask of the JVM
 * are queued together, batched by {@link BatchQueue} and run on the shared session.
 *
 * <p>A batch that throws an exception fails exactly the requests in it; the thread goes on with
 * the next. An {@link Error} (out of memory, a broken native runtime) marks the model broken: all
 * pending and later requests fail with {@link ModelBrokenException}, so the job fails loudly
 * instead of timing out document after document. Cancelling a request's future withdraws its
 * windows that have not reached the model.
 */
public final class MicroBatcher implements WindowRunner, AutoCloseable {
    private final MrcSession session;
    private final BatchQueue queue;
    private final int maxWindowsPerRequest;
    private final LongSupplier clock;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Thread worker;
    private final BatchStats stats = new BatchStats();
    private boolean closed;
    private volatile ModelBrokenException broken;

    public MicroBatcher(MrcSession session, BatchSize maxSize, Duration maxWait, int maxWindowsPerRequest) {
        this(session, maxSize, maxWait, maxWindowsPerRequest, System::nanoTime);
    }

    MicroBatcher(
            MrcSession session, BatchSize maxSize, Duration maxWait, int maxWindowsPerRequest, LongSupplier clock) {
        if (maxWindowsPerRequest < 1) {
            throw new IllegalArgumentException("max windows per request must be >= 1, got " + maxWindowsPerRequest);
        }
        this.session = session;
        this.queue = new BatchQueue(maxSize, maxWait);
        this.maxWindowsPerRequest = maxWindowsPerRequest;
        this.clock = clock;
        this.worker = new Thread(this::loop, "bioner-micro-batcher");
        worker.setDaemon(true);
        worker.start();
    }

    /** Queues the windows of one request; the future completes when all have run. */
    @Override
    public CompletableFuture<List<WindowResult>> run(List<MrcWindow> windows) {
        if (windows.size() > maxWindowsPerRequest) {
            return CompletableFuture.failedFuture(new TooManyWindowsException(windows.size(), maxWindowsPerRequest));
        }
        if (windows.isEmpty()) {
            return CompletableFuture.completedFuture(List.of());
        }
        lock.lock();
        try {
            if (broken != null) {
                return CompletableFuture.failedFuture(broken);
            }
            if (closed) {
                return CompletableFuture.failedFuture(new IllegalStateException("micro-batcher is closed"));
            }
            BatchRequest request = new BatchRequest(windows, clock.getAsLong());
            queue.add(request);
            request.future.whenComplete((r, error) -> {
                if (error != null) {
                    withdraw(request);
                }
            });
            changed.signalAll();
            return request.future;
        } finally {
            lock.unlock();
        }
    }

    private void withdraw(BatchRequest request) {
        lock.lock();
        try {
            queue.withdraw(request);
        } finally {
            lock.unlock();
        }
    }

    /** Whether an {@link Error} has broken the model; a broken batcher only fails requests. */
    public boolean isBroken() {
        return broken != null;
    }

    /** Counts of what this batcher has run so far. */
    public BatchStats stats() {
        return stats;
    }

    private void loop() {
        while (true) {
            List<PendingWindow> batch;
            lock.lock();
            try {
                long wait;
                while (!closed && (wait = queue.nanosUntilDue(clock.getAsLong())) > 0) {
                    changed.awaitNanos(Math.min(wait, TimeUnit.SECONDS.toNanos(1)));
                }
                batch = queue.poll(clock.getAsLong(), closed);
                if (closed && batch.isEmpty()) {
                    return;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } finally {
                lock.unlock();
            }
            if (!runBatch(batch)) {
                return;
            }
        }
    }

    /** Runs one batch; false when the model is broken and the thread must stop. */
    private boolean runBatch(List<PendingWindow> batch) {
        long start = clock.getAsLong();
        List<WindowLogits> logits;
        try {
            logits = session.run(batch.stream().map(PendingWindow::window).toList());
        } catch (Exception e) {
            batch.forEach(p -> p.request().future.completeExceptionally(e));
            return true;
        } catch (Error e) {
            breakModel(batch, e);
            return false;
        }
        long modelNanos = clock.getAsLong() - start;
        stats.record(batch.stream().mapToInt(p -> p.window().length()).toArray());
        for (int i = 0; i < batch.size(); i++) {
            PendingWindow p = batch.get(i);
            p.request()
                    .complete(
                            p.index(),
                            new WindowResult(
                                    logits.get(i), batch.size(), start - p.request().enqueuedNanos, modelNanos));
        }
        return true;
    }

    private void breakModel(List<PendingWindow> batch, Error e) {
        ModelBrokenException b =
                new ModelBrokenException("the model failed with " + e + "; it serves no more requests", e);
        List<BatchRequest> pending;
        lock.lock();
        try {
            broken = b;
            pending = new ArrayList<>();
            List<PendingWindow> rest;
            while (!(rest = queue.poll(Long.MAX_VALUE, true)).isEmpty()) {
                rest.forEach(p -> pending.add(p.request()));
            }
        } finally {
            lock.unlock();
        }
        batch.forEach(p -> p.request().future.completeExceptionally(b));
        pending.forEach(r -> r.future.completeExceptionally(b));
    }

    /** Runs what is queued, then stops the thread. */
    @Override
    public void close() {
        lock.lock();
        try {
            closed = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        try {
            worker.join(TimeUnit.MINUTES.toMillis(1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
