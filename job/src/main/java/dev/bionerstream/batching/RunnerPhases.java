package dev.bionerstream.batching;

import dev.bionerstream.batching.BatchListener.Phase;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What each of a batcher's model threads is doing, and who is told: the {@link BatchListener}s. A
 * listener added while the threads run learns each one's current phase first, under the same lock
 * as the changes, so it never misses or reorders one.
 */
final class RunnerPhases {
    private final List<BatchListener> listeners = new CopyOnWriteArrayList<>();
    /** Each model thread's current phase; guarded by itself. */
    private final Phase[] phases;

    RunnerPhases(int runners) {
        phases = new Phase[runners];
        Arrays.fill(phases, Phase.QUEUE_EMPTY);
    }

    int runners() {
        return phases.length;
    }

    MicroBatcher.Listening listen(BatchListener listener) {
        synchronized (phases) {
            for (int i = 0; i < phases.length; i++) {
                listener.phase(i, phases[i]);
            }
            listeners.add(listener);
        }
        return () -> listeners.remove(listener);
    }

    void enter(int runner, Phase next) {
        synchronized (phases) {
            if (phases[runner] == next) {
                return;
            }
            phases[runner] = next;
            for (BatchListener l : listeners) {
                l.phase(runner, next);
            }
        }
    }

    /** Model threads not in a batch now: waiting for one, or forming one. */
    int free() {
        synchronized (phases) {
            return (int) Arrays.stream(phases)
                    .filter(p -> p != Phase.MODEL && p != Phase.DELIVERING)
                    .count();
        }
    }

    /** Tells the listeners, if any, that a batch of windows of these lengths ran. */
    void batchRan(List<PendingWindow> batch) {
        if (!listeners.isEmpty()) {
            int[] lengths = batch.stream().mapToInt(p -> p.window().length()).toArray();
            listeners.forEach(l -> l.batchRan(lengths));
        }
    }
}
