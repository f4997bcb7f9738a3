package dev.bionerstream.batching;

import dev.bionerstream.engine.WindowResult;
import dev.bionerstream.features.MrcWindow;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One caller's windows in the batcher: those not yet handed to a batch, and the future that
 * completes when all have run. {@link #take} runs under the batcher's lock, {@link #complete} on
 * its delivery thread only.
 */
final class BatchRequest {
    final List<MrcWindow> windows;
    final long enqueuedNanos;
    final CompletableFuture<List<WindowResult>> future = new CompletableFuture<>();
    private final WindowResult[] results;
    private final BitSet queued;
    private int unfinished;
    /** Its windows are due without waiting: it was queued when a batch took its part of a due queue. */
    boolean due;

    BatchRequest(List<MrcWindow> windows, long enqueuedNanos) {
        this.windows = List.copyOf(windows);
        this.enqueuedNanos = enqueuedNanos;
        this.results = new WindowResult[windows.size()];
        this.queued = new BitSet(windows.size());
        queued.set(0, windows.size());
        this.unfinished = windows.size();
    }

    int queued() {
        return queued.cardinality();
    }

    /** The windows not yet handed to a batch. */
    List<PendingWindow> pending() {
        return queued.stream()
                .mapToObj(i -> new PendingWindow(this, i, windows.get(i)))
                .toList();
    }

    /** Hands window {@code index} to a batch. */
    void take(int index) {
        queued.clear(index);
    }

    void complete(int index, WindowResult result) {
        results[index] = result;
        if (--unfinished == 0) {
            future.complete(Arrays.asList(results));
        }
    }
}
