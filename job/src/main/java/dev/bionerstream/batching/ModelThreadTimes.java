package dev.bionerstream.batching;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Where the model threads' wall time goes, as a listener of their batcher. Each thread (a runner of
 * the batcher) is always in exactly one {@link Phase}; it says when it enters the next, and a
 * {@link #snapshot} counts the
 * current phases up to the moment it is taken, as the mean over the runners. So the phases of the
 * period between two snapshots add up to the period's length, and whatever is not
 * {@link Phase#MODEL} is time a model thread could have been computing.
 */
public final class ModelThreadTimes implements BatchListener {
    private final LongSupplier clock;
    private final Runner[] runners;

    /** One model thread's phase totals. */
    private final class Runner {
        final long[] nanos = new long[Phase.values().length];
        Phase current = Phase.QUEUE_EMPTY;
        long since;
        Times atLastModelEnd;

        Runner(long now) {
            since = now;
            atLastModelEnd = times(now);
        }

        Times times(long now) {
            Map<Phase, Long> out = new EnumMap<>(Phase.class);
            for (Phase p : Phase.values()) {
                out.put(p, nanos[p.ordinal()] + (p == current ? now - since : 0));
            }
            return new Times(out, now);
        }
    }

    /** For the {@code runners} model threads of a batcher, on the JVM's monotonic clock. */
    public ModelThreadTimes(int runners) {
        this(System::nanoTime, runners);
    }

    ModelThreadTimes(LongSupplier clock, int runners) {
        this.clock = clock;
        long now = clock.getAsLong();
        this.runners = new Runner[runners];
        for (int i = 0; i < runners; i++) {
            this.runners[i] = new Runner(now);
        }
    }

    /** Cheap enough for a few calls per batch. */
    @Override
    public synchronized void phase(int runner, Phase next) {
        Runner r = runners[runner];
        if (next == r.current) {
            return;
        }
        long now = clock.getAsLong();
        r.nanos[r.current.ordinal()] += now - r.since;
        r.since = now;
        if (r.current == Phase.MODEL) {
            r.atLastModelEnd = r.times(now);
        }
        r.current = next;
    }

    /**
     * The totals now, and as they were when the model last finished a batch, each the mean over
     * the runners.
     */
    public synchronized Snapshot snapshot() {
        long now = clock.getAsLong();
        List<Times> current = new ArrayList<>(runners.length);
        List<Times> lastModelEnd = new ArrayList<>(runners.length);
        for (Runner r : runners) {
            Times t = r.times(now);
            current.add(t);
            lastModelEnd.add(r.current == Phase.MODEL ? t : r.atLastModelEnd);
        }
        return new Snapshot(Times.mean(current), Times.mean(lastModelEnd));
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

        static Times mean(List<Times> all) {
            Map<Phase, Long> m = new EnumMap<>(Phase.class);
            for (Phase p : Phase.values()) {
                m.put(p, all.stream().mapToLong(t -> t.of(p)).sum() / all.size());
            }
            return new Times(m, all.stream().mapToLong(Times::atNanos).sum() / all.size());
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
