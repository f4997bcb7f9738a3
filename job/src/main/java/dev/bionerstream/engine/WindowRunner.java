package dev.bionerstream.engine;

import dev.bionerstream.features.MrcWindow;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * How windows reach the model: {@link LengthSortedBatches} on the caller's thread for the command
 * line, the JVM's shared micro-batcher for the streaming job, a fake in tests.
 */
@FunctionalInterface
public interface WindowRunner {
    /**
     * Runs {@code windows}; the future holds one result per window, in their order. Cancelling it
     * withdraws the windows that have not reached the model yet.
     */
    CompletableFuture<List<WindowResult>> run(List<MrcWindow> windows);
}
