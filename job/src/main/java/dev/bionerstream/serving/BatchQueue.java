package dev.bionerstream.serving;

import dev.bionerstream.features.MrcWindow;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The batching policy, free of threads and clocks so it can be tested with controlled time: a
 * batch closes when {@code maxSize} windows wait, or when the oldest has waited {@code maxWait}
 * (Triton's max_batch_size / max_queue_delay). A closed batch is sorted by length so its
 * padding is small. Not thread-safe: {@link MicroBatcher} guards it.
 */
final class BatchQueue {
    private final int maxSize;
    private final long maxWaitNanos;
    private final ArrayDeque<PendingWindow> queue = new ArrayDeque<>();

    BatchQueue(int maxSize, Duration maxWait) {
        if (maxSize < 1) {
            throw new IllegalArgumentException("batch max size must be >= 1, got " + maxSize);
        }
        if (maxWait.isNegative()) {
            throw new IllegalArgumentException("batch max wait must not be negative, got " + maxWait);
        }
        this.maxSize = maxSize;
        this.maxWaitNanos = maxWait.toNanos();
    }

    PendingWindow add(MrcWindow window, long nowNanos) {
        PendingWindow p = new PendingWindow(window, nowNanos);
        queue.add(p);
        return p;
    }

    /** Nanoseconds until the next batch is due: 0 if one is due now, Long.MAX_VALUE if the queue is empty. */
    long nanosUntilDue(long nowNanos) {
        if (queue.isEmpty()) {
            return Long.MAX_VALUE;
        }
        if (queue.size() >= maxSize) {
            return 0;
        }
        return Math.max(0, queue.peekFirst().enqueuedNanos() + maxWaitNanos - nowNanos);
    }

    /** The next batch if one is due (or {@code force} and the queue is not empty), else an empty list. */
    List<PendingWindow> poll(long nowNanos, boolean force) {
        if (queue.isEmpty() || (!force && nanosUntilDue(nowNanos) > 0)) {
            return List.of();
        }
        List<PendingWindow> batch = new ArrayList<>(Math.min(maxSize, queue.size()));
        while (batch.size() < maxSize && !queue.isEmpty()) {
            batch.add(queue.pollFirst());
        }
        batch.sort(Comparator.comparingInt(p -> p.window().length()));
        return batch;
    }

    int size() {
        return queue.size();
    }
}
