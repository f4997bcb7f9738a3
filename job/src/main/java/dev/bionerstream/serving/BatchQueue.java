package dev.bionerstream.serving;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The batching policy, free of threads and clocks so it can be tested with controlled time. A
 * batch closes when {@code maxSize} windows wait, or when the oldest has waited {@code maxWait}
 * (Triton's max_batch_size / max_queue_delay).
 *
 * <p>A batch is filled from the oldest request on, but one request takes at most half of it while
 * others wait: a document of thousands of windows then slows the documents behind it by half
 * instead of blocking them until it is done, and it still progresses while small ones keep
 * arriving. Not thread-safe: {@link MicroBatcher} guards it.
 */
final class BatchQueue {
    private final int maxSize;
    private final int share;
    private final long maxWaitNanos;
    private final ArrayDeque<BatchRequest> requests = new ArrayDeque<>();
    private int queued;

    BatchQueue(int maxSize, Duration maxWait) {
        if (maxSize < 1) {
            throw new IllegalArgumentException("batch max size must be >= 1, got " + maxSize);
        }
        if (maxWait.isNegative()) {
            throw new IllegalArgumentException("batch max wait must not be negative, got " + maxWait);
        }
        this.maxSize = maxSize;
        this.share = (maxSize + 1) / 2;
        this.maxWaitNanos = maxWait.toNanos();
    }

    void add(BatchRequest request) {
        if (request.queued() > 0) {
            requests.add(request);
            queued += request.queued();
        }
    }

    /** Takes back the windows of {@code request} that are not in a batch yet. */
    void withdraw(BatchRequest request) {
        if (requests.remove(request)) {
            queued -= request.queued();
        }
    }

    /** Nanoseconds until the next batch is due: 0 if one is due now, Long.MAX_VALUE if the queue is empty. */
    long nanosUntilDue(long nowNanos) {
        if (queued == 0) {
            return Long.MAX_VALUE;
        }
        if (queued >= maxSize) {
            return 0;
        }
        return Math.max(0, requests.peekFirst().enqueuedNanos + maxWaitNanos - nowNanos);
    }

    /** The next batch if one is due (or {@code force} and the queue is not empty), else an empty list. */
    List<PendingWindow> poll(long nowNanos, boolean force) {
        if (queued == 0 || (!force && nanosUntilDue(nowNanos) > 0)) {
            return List.of();
        }
        List<PendingWindow> batch = new ArrayList<>(Math.min(maxSize, queued));
        while (batch.size() < maxSize && queued > 0) {
            for (Iterator<BatchRequest> it = requests.iterator(); it.hasNext() && batch.size() < maxSize; ) {
                BatchRequest r = it.next();
                int take = Math.min(Math.min(share, maxSize - batch.size()), r.queued());
                for (int k = 0; k < take; k++) {
                    batch.add(r.take());
                }
                queued -= take;
                if (r.queued() == 0) {
                    it.remove();
                }
            }
        }
        return batch;
    }

    int size() {
        return queued;
    }
}
