package dev.bionerstream.batching;

import dev.bionerstream.engine.BatchSize;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IntSummaryStatistics;
import java.util.List;
import java.util.Map;

/**
 * The waiting windows and which of them make the next batch, free of threads and clocks so it can
 * be tested with controlled time. A batch closes when {@code maxSize} windows wait, or when the
 * oldest has waited {@code maxWait} (Triton's max_batch_size / max_queue_delay).
 *
 * <p>Which windows make a batch: one of the oldest request's windows (its longest, so that a
 * document's costliest passes start first) always goes in, so every request progresses; the rest
 * are the waiting windows closest to it in length, because a batch costs as much as its longest
 * window times its size (the session pads to the longest). One request takes at most half a batch
 * while others wait: a document of thousands of windows then slows the documents behind it by half
 * instead of blocking them, and still progresses while small ones keep arriving. The {@link
 * BatchPolicy} says which lengths may share a batch: on a CPU ({@link BatchPolicy#SIMILAR_LENGTHS})
 * a window far shorter than the batch's longest goes into a batch of its own length (at once: see
 * below) instead of being padded.
 *
 * <p>A due queue is shared among the model threads free at that moment: each takes its part, so a
 * document that arrives alone runs on all of them side by side instead of in one batch on one
 * thread while the others idle (its latency, not the throughput: a queue of a full batch per free
 * thread still gives full batches). What a batch leaves of a due queue, shared or cut by length,
 * stays due. Not thread-safe: {@link MicroBatcher} guards it.
 */
final class BatchQueue {
    private static final Comparator<PendingWindow> BY_LENGTH =
            Comparator.comparingInt(p -> p.window().length());

    private final int maxSize;
    private final long maxWaitNanos;
    private final BatchPolicy policy;
    private final ArrayDeque<BatchRequest> requests = new ArrayDeque<>();
    private int queued;

    BatchQueue(BatchSize maxSize, Duration maxWait) {
        this(maxSize, maxWait, BatchPolicy.FILL);
    }

    BatchQueue(BatchSize maxSize, Duration maxWait, BatchPolicy policy) {
        if (maxWait.isNegative()) {
            throw new IllegalArgumentException("batch max wait must not be negative, got " + maxWait);
        }
        this.policy = policy;
        this.maxSize = maxSize.value();
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
        if (queued >= maxSize || requests.peekFirst().due) { // the oldest is due if any is
            return 0;
        }
        return Math.max(0, requests.peekFirst().enqueuedNanos + maxWaitNanos - nowNanos);
    }

    /** The next batch if one is due (or {@code force} and the queue is not empty), else an empty list. */
    List<PendingWindow> poll(long nowNanos, boolean force) {
        return poll(nowNanos, force, 1);
    }

    /**
     * As {@link #poll(long, boolean)} for one of {@code freeRunners} model threads free to run a
     * batch now: the batch is this thread's part of the due queue (at most {@code maxSize}).
     */
    List<PendingWindow> poll(long nowNanos, boolean force, int freeRunners) {
        if (queued == 0 || (!force && nanosUntilDue(nowNanos) > 0)) {
            return List.of();
        }
        int free = Math.max(1, freeRunners);
        int size = Math.min(maxSize, (queued + free - 1) / free);
        List<PendingWindow> batch = batch(size);
        for (PendingWindow p : batch) {
            p.request().take(p.index());
            if (p.request().queued() == 0) {
                requests.remove(p.request());
            }
        }
        if (batch.size() < Math.min(maxSize, queued)) {
            requests.forEach(r -> r.due = true);
        }
        queued -= batch.size();
        return batch;
    }

    /** Which {@code size} waiting windows make the next batch (see the class comment). */
    private List<PendingWindow> batch(int size) {
        List<PendingWindow> waiting = new ArrayList<>(queued);
        requests.forEach(r -> waiting.addAll(r.pending()));
        PendingWindow first =
                Collections.max(waiting.subList(0, requests.peekFirst().queued()), BY_LENGTH);
        waiting.sort(BY_LENGTH);
        int anchor = waiting.indexOf(first);
        int length = first.window().length();
        int share = (size + 1) / 2;
        List<Integer> nearest =
                nearest(waiting, anchor, length, length, length, size, requests.size() > 1 ? share : size);
        List<PendingWindow> batch = new ArrayList<>(size);
        nearest.forEach(i -> batch.add(waiting.get(i)));
        if (batch.size() < size && requests.size() > 1) { // the others had too little: fill up regardless of shares
            nearest.forEach(i -> waiting.set(i, null));
            IntSummaryStatistics taken =
                    batch.stream().mapToInt(p -> p.window().length()).summaryStatistics();
            nearest(waiting, anchor, length, taken.getMin(), taken.getMax(), size - batch.size(), size)
                    .forEach(i -> batch.add(waiting.get(i)));
        }
        return batch;
    }

    /**
     * Positions of up to {@code size} windows of {@code sorted} around {@code anchor} (of {@code
     * length}), nearest to it in length first, at most {@code perRequest} of one request, and none
     * shorter than the policy's fraction of the longest in the batch (which already spans {@code
     * shortest} to {@code longest}); null entries are skipped.
     */
    private List<Integer> nearest(
            List<PendingWindow> sorted, int anchor, int length, int shortest, int longest, int size, int perRequest) {
        List<Integer> out = new ArrayList<>(size);
        Map<BatchRequest, Integer> taken = new HashMap<>();
        int lo = anchor - 1;
        int hi = anchor;
        while (out.size() < size && (lo >= 0 || hi < sorted.size())) {
            boolean up = lo < 0 || (hi < sorted.size() && distance(sorted, hi, length) <= distance(sorted, lo, length));
            int i = up ? hi++ : lo--;
            PendingWindow p = sorted.get(i);
            if (p == null) {
                continue;
            }
            int l = p.window().length();
            if (Math.min(shortest, l)
                    < policy.minLengthRatio() * Math.max(longest, l)) { // the rest of this side is further
                if (up) {
                    hi = sorted.size();
                } else {
                    lo = -1;
                }
            } else if (taken.getOrDefault(p.request(), 0) < perRequest) {
                taken.merge(p.request(), 1, Integer::sum);
                out.add(i);
                shortest = Math.min(shortest, l);
                longest = Math.max(longest, l);
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
