package dev.bionerstream.serving;

import dev.bionerstream.engine.WindowResult;
import dev.bionerstream.features.MrcWindow;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One caller's windows in the batcher: those not yet handed to a batch, and the future that
 * completes when all have run. {@link #take} runs under the batcher's lock, {@link #complete} on
 * its model thread only.
 */
final class BatchRequest {
    final List<MrcWindow> windows;
    final long enqueuedNanos;
    final CompletableFuture<List<WindowResult>> future = new CompletableFuture<>();
    private final WindowResult[] results;
    private int next;
    private int unfinished;

    BatchRequest(List<MrcWindow> windows, long enqueuedNanos) {
        this.windows = List.copyOf(windows);
        this.enqueuedNanos = enqueuedNanos;
        this.results = new WindowResult[windows.size()];
        this.unfinished = windows.size();
    }

    int queued() {
        return windows.size() - next;
    }

    PendingWindow take() {
        int index = next++;
        return new PendingWindow(this, index, windows.get(index));
    }

    void complete(int index, WindowResult result) {
        results[index] = result;
        if (--unfinished == 0) {
            future.complete(Arrays.asList(results));
        }
    }
}
