package dev.bionerstream.batching;

import dev.bionerstream.batching.BatchListener.Phase;
import dev.bionerstream.engine.WindowResult;
import dev.bionerstream.engine.WindowRunner;
import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.inference.MrcSession;
import dev.bionerstream.inference.WindowLogits;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * Model-calling threads (runners, one by default) fed by any number of callers: windows from every
 * subtask of the JVM are queued together, batched by {@link BatchQueue} as the {@link BatchSettings}
 * say (their {@link BatchPolicy} chosen for the device) and run on the shared session. The batcher
 * keeps the threads, the delivery of results and the closing; which windows make a batch is the
 * queue's. Results are handed to a delivery thread that completes the requests, so a model thread
 * goes straight on to the next batch instead of waiting for the callers' callbacks (decoding,
 * output records): the model is the stream's bottleneck, and each of its idle moments is lost
 * throughput.
 *
 * <p>Several runners run batches side by side on the one session (ONNX Runtime's run is
 * thread-safe). On CPU, runners each with one ONNX Runtime thread do not wait for each other at
 * every operator, as the threads of one run do: a core taken by the job's other threads then
 * stalls one batch instead of all.
 *
 * <p>A batch that throws an exception fails exactly the requests in it; the thread goes on with
 * the next. An {@link Error} (out of memory, a broken native runtime) marks the model broken: all
 * pending and later requests fail with {@link ModelBrokenException}, so the job fails loudly
 * instead of timing out document after document. Cancelling a request's future withdraws its
 * windows that have not reached the model.
 *
 * <p>What the model threads do is told to {@link BatchListener}s; the batcher keeps no statistics.
 */
public final class MicroBatcher implements WindowRunner, AutoCloseable {
    private final MrcSession session;
    private final BatchQueue queue;
    private final int maxWindowsPerRequest;
    private final LongSupplier clock;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final List<Thread> runners = new ArrayList<>();
    private final ExecutorService delivery = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "bioner-batch-delivery");
        t.setDaemon(true);
        return t;
    });
    private final RunnerPhases phases;

    private boolean closed;
    private volatile ModelBrokenException broken;
    /** Model threads not yet ended. */
    private final AtomicInteger running;
    /** What {@link #close(Runnable)} leaves to the last model thread to end, once. */
    private final AtomicReference<Runnable> afterRunners = new AtomicReference<>();

    public MicroBatcher(MrcSession session, BatchSettings settings, int runners) {
        this(session, settings, runners, System::nanoTime);
    }

    MicroBatcher(MrcSession session, BatchSettings settings, int runners, LongSupplier clock) {
        if (runners < 1) {
            throw new IllegalArgumentException("model runners must be >= 1, got " + runners);
        }
        this.session = session;
        this.queue = new BatchQueue(settings.maxSize(), settings.maxWait(), settings.policy());
        this.maxWindowsPerRequest = settings.maxWindowsPerRequest();
        this.clock = clock;
        this.phases = new RunnerPhases(runners);
        this.running = new AtomicInteger(runners);
        for (int i = 0; i < runners; i++) {
            int runner = i;
            Thread t = new Thread(
                    () -> {
                        try {
                            loop(runner);
                        } finally {
                            if (running.decrementAndGet() == 0) {
                                runAfterRunners();
                            }
                        }
                    },
                    runners == 1 ? "bioner-micro-batcher" : "bioner-micro-batcher-" + i);
            t.setDaemon(true);
            this.runners.add(t);
        }
        this.runners.forEach(Thread::start);
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

    /** A listener's registration; closing it stops the calls. */
    public interface Listening extends AutoCloseable {
        @Override
        void close();
    }

    /** How many model threads run batches. */
    public int runners() {
        return phases.runners();
    }

    /**
     * Tells {@code listener} what the model threads do from now on, starting with each one's
     * current phase, until the returned handle is closed.
     */
    public Listening listen(BatchListener listener) {
        return phases.listen(listener);
    }

    private void loop(int runner) {
        while (true) {
            List<PendingWindow> batch;
            lock.lock();
            try {
                long wait;
                while (!closed && broken == null && (wait = queue.nanosUntilDue(clock.getAsLong())) > 0) {
                    phases.enter(runner, queue.size() == 0 ? Phase.QUEUE_EMPTY : Phase.FILLING);
                    changed.awaitNanos(Math.min(wait, TimeUnit.SECONDS.toNanos(1)));
                }
                if (broken != null) {
                    return;
                }
                phases.enter(runner, Phase.FORMING);
                batch = queue.poll(clock.getAsLong(), closed, phases.free());
                if (closed && batch.isEmpty()) {
                    return;
                }
                if (!batch.isEmpty()) {
                    phases.enter(runner, Phase.MODEL); // no longer free: a thread woken next takes all of the rest
                }
                if (queue.nanosUntilDue(clock.getAsLong()) == 0) {
                    changed.signalAll(); // the rest is the other free threads'
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } finally {
                lock.unlock();
            }
            if (!runBatch(runner, batch)) {
                return;
            }
        }
    }

    /** Runs one batch; false when the model is broken and the thread must stop. */
    private boolean runBatch(int runner, List<PendingWindow> batch) {
        phases.enter(runner, Phase.MODEL);
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
        phases.enter(runner, Phase.DELIVERING);
        phases.batchRan(batch);
        try {
            delivery.execute(() -> deliver(batch, logits, start, modelNanos));
        } catch (RejectedExecutionException closing) { // close() gave up waiting for this thread
            deliver(batch, logits, start, modelNanos);
        }
        return true;
    }

    /**
     * Completes the batch's windows on the delivery thread: a request's last window completes its
     * future, whose callbacks (decoding, the document's records, the next pass of a gated
     * document) then run there, while the model thread already runs the next batch. One thread,
     * in batch order, so a request's windows are still completed one at a time.
     */
    private void deliver(List<PendingWindow> batch, List<WindowLogits> logits, long start, long modelNanos) {
        for (int i = 0; i < batch.size(); i++) {
            PendingWindow p = batch.get(i);
            p.request()
                    .complete(
                            p.index(),
                            new WindowResult(
                                    logits.get(i), batch.size(), start - p.request().enqueuedNanos, modelNanos));
        }
    }

    private void breakModel(List<PendingWindow> batch, Error e) {
        ModelBrokenException b =
                new ModelBrokenException("the model failed with " + e + "; it serves no more requests", e);
        List<BatchRequest> pending;
        lock.lock();
        try {
            broken = b;
            changed.signalAll(); // the other runners stop
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

    /** Runs what is queued, then stops the threads. */
    @Override
    public void close() {
        close(() -> {});
    }

    /**
     * Runs what is queued, stops the threads, then runs {@code afterwards} (closing the session they
     * run): a session closed under a running batch crashes the JVM (SIGSEGV in ONNX Runtime's run).
     * Waits up to a minute for the threads, interrupted or not (Flink interrupts a cancelled task's
     * thread); a thread still in a batch then runs {@code afterwards} itself when it ends.
     */
    public void close(Runnable afterwards) {
        lock.lock();
        try {
            closed = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        afterRunners.set(afterwards);
        boolean interrupted = false;
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        for (Thread t : runners) {
            while (t.isAlive() && System.nanoTime() < deadline) {
                try {
                    TimeUnit.NANOSECONDS.timedJoin(t, Math.max(1, deadline - System.nanoTime()));
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        delivery.shutdown(); // after the model threads: each hands over its last batch before it ends
        while (!delivery.isTerminated() && System.nanoTime() < deadline) {
            try {
                delivery.awaitTermination(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (running.get() == 0) {
            runAfterRunners();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void runAfterRunners() {
        Runnable r = afterRunners.getAndSet(null);
        if (r != null) {
            r.run();
        }
    }
}
