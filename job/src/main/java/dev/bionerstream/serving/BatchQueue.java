package dev.bionerstream.serving;

import dev.bionerstream.engine.BatchSize;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The batching policy, free of threads and clocks so it can be tested with controlled time. A
 * batch closes when {@code maxSize} windows wait, or when the oldest has waited {@code maxWait}
 * (Triton's max_batch_size / max_queue_delay).
 *
 * <p>Which windows make a batch: the oldest waiting window always goes in, so every window is
 * served in time; the rest are the waiting windows closest to it in length, because a batch costs
 * as much as its longest window times its size (the session pads to the longest). One request
 * takes at most half a batch while others wait: a document of thousands of windows then slows the
 * documents behind it by half instead of blocking them, and still progresses while small ones keep
 * arriving. Not thread-safe: {@link MicroBatcher} guards it.
 */
final class BatchQueue {
    private static final Comparator<PendingWindow> BY_LENGTH =
            Comparator.comparingInt(p -> p.window().length());

    private final int maxSize;
    private final int share;
    private final long maxWaitNanos;
    private final ArrayDeque<BatchRequest> requests = new ArrayDeque<>();
    private int queued;

    BatchQueue(BatchSize maxSize, Duration maxWait) {
        if (maxWait.isNegative()) {
            throw new IllegalArgumentException("batch max wait must not be negative, got " + maxWait);
        }
        this.maxSize = maxSize.value();
        this.share = (this.maxSize + 1) / 2;
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
        List<PendingWindow> waiting = new ArrayList<>(queued);
        PendingWindow oldest = null;
        for (BatchRequest r : requests) {
            List<PendingWindow> pending = r.pending();
            oldest = oldest == null ? pending.get(0) : oldest;
            waiting.addAll(pending);
        }
        waiting.sort(BY_LENGTH);
        int anchor = waiting.indexOf(oldest);
        int length = oldest.window().length();
        List<Integer> first = nearest(waiting, anchor, length, requests.size() > 1 ? share : maxSize);
        List<PendingWindow> batch = new ArrayList<>(maxSize);
        first.forEach(i -> batch.add(waiting.get(i)));
        if (batch.size() < maxSize && requests.size() > 1) { // the others had too little: fill up regardless of shares
            first.forEach(i -> waiting.set(i, null));
            nearest(waiting, anchor, length, maxSize).stream()
                    .limit(maxSize - batch.size())
                    .forEach(i -> batch.add(waiting.get(i)));
        }
        for (PendingWindow p : batch) {
            p.request().take(p.index());
            if (p.request().queued() == 0) {
                requests.remove(p.request());
            }
        }
        queued -= batch.size();
        return batch;
    }

    /**
     * Positions of up to {@code maxSize} windows of {@code sorted} around {@code anchor}, nearest to
     * {@code length} first, at most {@code perRequest} of one request; null entries are skipped.
     */
    private List<Integer> nearest(List<PendingWindow> sorted, int anchor, int length, int perRequest) {
        List<Integer> out = new ArrayList<>(maxSize);
        Map<BatchRequest, Integer> taken = new HashMap<>();
        int lo = anchor - 1;
        int hi = anchor;
        while (out.size() < maxSize && (lo >= 0 || hi < sorted.size())) {
            boolean up = lo < 0 || (hi < sorted.size() && distance(sorted, hi, length) <= distance(sorted, lo, length));
            int i = up ? hi++ : lo--;
            PendingWindow p = sorted.get(i);
            if (p != null && taken.getOrDefault(p.request(), 0) < perRequest) {
                taken.merge(p.request(), 1, Integer::sum);
                out.add(i);
            }
        }
        return out;
    }

    private static int distance(List<PendingWindow> sorted, int i, int length) {
        PendingWindow p = sorted.get(i);
        return p == null ? 0 : Math.abs(p.window().length() - length);
    }

    int size() {
        return queued;
    }
}
