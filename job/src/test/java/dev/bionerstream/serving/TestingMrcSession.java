package dev.bionerstream.serving;

import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.inference.Device;
import dev.bionerstream.inference.MrcSession;
import dev.bionerstream.inference.WindowLogits;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A model without weights: a context piece whose id is in {@code entityIds} is a one-piece
 * entity (start and end), every other piece is not. Records the batches it ran and can be told
 * to fail the next batches, with an exception or an error.
 */
public final class TestingMrcSession implements MrcSession {
    private final Set<Long> entityIds;
    public final List<List<MrcWindow>> batches = new CopyOnWriteArrayList<>();
    public volatile int failNext;
    /** The next batch throws an {@link Error}, as a native runtime or an exhausted heap would. */
    public volatile boolean errorNext;
    /** Time each batch takes, to make a stream last long enough for a fault in its middle. */
    public volatile long delayMillis;
    /**
     * When set, each batch waits until as many batches as the barrier has parties run at once, and
     * fails if they do not meet within {@link #meetSeconds}: proof that batches ran side by side.
     */
    public volatile CyclicBarrier meet;

    public volatile int meetSeconds = 60;

    public volatile boolean closed;

    /** Batches in {@link #run} now. */
    public final java.util.concurrent.atomic.AtomicInteger running = new java.util.concurrent.atomic.AtomicInteger();

    public TestingMrcSession(Set<Long> entityIds) {
        this.entityIds = entityIds;
    }

    @Override
    public List<WindowLogits> run(List<MrcWindow> batch) {
        running.incrementAndGet();
        try {
            return runCounted(batch);
        } finally {
            running.decrementAndGet();
        }
    }

    private List<WindowLogits> runCounted(List<MrcWindow> batch) {
        batches.add(List.copyOf(batch));
        if (meet != null) {
            try {
                meet.await(meetSeconds, TimeUnit.SECONDS);
            } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
                throw new IllegalStateException("batches did not run side by side: " + e, e);
            }
        }
        if (delayMillis > 0) {
            try {
                Thread.sleep(delayMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (errorNext) {
            errorNext = false;
            throw new OutOfMemoryError("injected native error");
        }
        if (failNext > 0) {
            failNext--;
            throw new IllegalStateException("injected model failure");
        }
        List<WindowLogits> out = new ArrayList<>();
        for (MrcWindow w : batch) {
            float[] logits = new float[2 * w.contextLength()];
            for (int k = 0; k < w.contextLength(); k++) {
                boolean entity = entityIds.contains(w.inputIds()[k + 1]);
                logits[2 * k + (entity ? 1 : 0)] = 4f;
            }
            out.add(new WindowLogits(logits, logits.clone()));
        }
        return out;
    }

    @Override
    public String provider() {
        return "TESTING";
    }

    /**
     * An accelerator's: it answers at once whatever the padding, so the batcher fills its batches
     * ({@code BatchPolicy.FILL}), as the tests written against it expect.
     */
    @Override
    public Device device() {
        return new Device(true, 0);
    }

    @Override
    public void close() {
        closed = true;
    }
}
