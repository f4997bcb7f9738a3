package dev.bionerstream.serving;

import java.util.EnumMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Where the model thread's wall time goes. The thread is always in exactly one {@link Phase}; it
 * says when it enters the next, and a {@link #snapshot} counts the current phase up to the moment
 * it is taken. So the phases of the period between two snapshots add up to the period's length,
 * and whatever is not {@link Phase#MODEL} is time the model could have been computing.
 */
public final class ModelThreadTimes {
    /** What the model thread is doing. */
    public enum Phase {
        /** Nothing queued: upstream (source, parsing, tokenizing, in-order output, backpressure) sends nothing. */
        QUEUE_EMPTY,
        /** Windows queued, but too few for a batch and the oldest has not waited batch.max-wait yet. */
        FILLING,
        /** Choosing the next batch's windows. */
        FORMING,
        /** In the model session's run. */
        MODEL,
        /** Handing a batch's results over to be delivered to its requests. */
        DELIVERING
    }

    private final LongSupplier clock;
    private final long[] nanos = new long[Phase.values().length];
    private Phase current = Phase.QUEUE_EMPTY;
    private long since;
    private Times atLastModelEnd;

    ModelThreadTimes(LongSupplier clock) {
        this.clock = clock;
        this.since = clock.getAsLong();
        this.atLastModelEnd = times(since);
    }

    /** The model thread now does {@code next}; cheap enough for a few calls per batch. */
    synchronized void enter(Phase next) {
        if (next == current) {
            return;
        }
        long now = clock.getAsLong();
        nanos[current.ordinal()] += now - since;
        since = now;
        if (current == Phase.MODEL) {
            atLastModelEnd = times(now);
        }
        current = next;
    }

    /** The totals now, and as they were when the model last finished a batch. */
    public synchronized Snapshot snapshot() {
        long now = clock.getAsLong();
        Times t = times(now);
        return new Snapshot(t, current == Phase.MODEL ? t : atLastModelEnd);
    }

    private Times times(long now) {
        Map<Phase, Long> out = new EnumMap<>(Phase.class);
        for (Phase p : Phase.values()) {
            out.put(p, nanos[p.ordinal()] + (p == current ? now - since : 0));
        }
        return new Times(out, now);
    }

    /**
     * Totals at one moment: {@code now}, and {@code lastModelEnd}, the totals when the model last
     * finished a batch; what lies between them is the time since (in a benchmark, the time from the
     * last batch to the last output).
     */
    public record Snapshot(Times now, Times lastModelEnd) {}

    /**
     * Nanoseconds per phase at {@code atNanos} (a reading of the thread's clock); for a difference
     * ({@link #minus}), {@code atNanos} is the length of the period.
     */
    public record Times(Map<Phase, Long> nanos, long atNanos) {
        public Times {
            nanos = Map.copyOf(nanos);
        }

        public long of(Phase p) {
            return nanos.getOrDefault(p, 0L);
        }

        /** Per phase, the time between {@code earlier} and this; their sum is the time between the two. */
        public Times minus(Times earlier) {
            Map<Phase, Long> d = new EnumMap<>(Phase.class);
            for (Phase p : Phase.values()) {
                d.put(p, of(p) - earlier.of(p));
            }
            return new Times(d, atNanos - earlier.atNanos);
        }
    }
}
