package dev.bionerstream.serving;

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
 * are queued together, batched by {@link BatchQueue} and run on the shared session. A failed
 * batch fails exactly the windows in it; the thread goes on with the next.
 */
public final class MicroBatcher implements AutoCloseable {
    private final MrcSession session;
    private final BatchQueue queue;
    private final LongSupplier clock;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Thread worker;
    private boolean closed;

    public MicroBatcher(MrcSession session, int maxSize, Duration maxWait) {
        this(session, maxSize, maxWait, System::nanoTime);
    }

    MicroBatcher(MrcSession session, int maxSize, Duration maxWait, LongSupplier clock) {
        this.session = session;
        this.queue = new BatchQueue(maxSize, maxWait);
        this.clock = clock;
        this.worker = new Thread(this::loop, "bioner-micro-batcher");
        worker.setDaemon(true);
        worker.start();
    }

    /** Queues the windows of one request; the future completes when all have run. */
    public CompletableFuture<List<WindowResult>> submit(List<MrcWindow> windows) {
        List<CompletableFuture<WindowResult>> futures = new ArrayList<>(windows.size());
        lock.lock();
        try {
            if (closed) {
                return CompletableFuture.failedFuture(new IllegalStateException("micro-batcher is closed"));
            }
            long now = clock.getAsLong();
            for (MrcWindow w : windows) {
                futures.add(queue.add(w, now).result());
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        return CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new))
                .thenApply(v -> futures.stream().map(CompletableFuture::join).toList());
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
            run(batch);
        }
    }

    private void run(List<PendingWindow> batch) {
        long start = clock.getAsLong();
        try {
            List<WindowLogits> logits = session.run(batch.stream().map(PendingWindow::window).toList());
            long modelNanos = clock.getAsLong() - start;
            for (int i = 0; i < batch.size(); i++) {
                PendingWindow p = batch.get(i);
                p.result().complete(new WindowResult(logits.get(i), batch.size(), start - p.enqueuedNanos(), modelNanos));
            }
        } catch (RuntimeException e) {
            batch.forEach(p -> p.result().completeExceptionally(e));
        }
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
