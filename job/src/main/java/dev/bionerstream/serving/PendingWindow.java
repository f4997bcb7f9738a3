package dev.bionerstream.serving;

import dev.bionerstream.features.MrcWindow;
import java.util.concurrent.CompletableFuture;

/** A window waiting for the model, with the time it was queued (nanoseconds of the batcher's clock). */
record PendingWindow(MrcWindow window, long enqueuedNanos, CompletableFuture<WindowResult> result) {
    PendingWindow(MrcWindow window, long enqueuedNanos) {
        this(window, enqueuedNanos, new CompletableFuture<>());
    }
}
