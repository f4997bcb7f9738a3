package dev.bionerstream.engine;

import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.inference.MrcSession;
import dev.bionerstream.inference.WindowLogits;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Runs all windows on the caller's thread, in batches of similar length so that little padding
 * is computed, and returns the results in the original order. For the command line, where all
 * the input is known in advance.
 */
public final class LengthSortedBatches implements WindowRunner {
    private final MrcSession session;
    private final int batchSize;

    public LengthSortedBatches(MrcSession session, BatchSize batchSize) {
        this.session = session;
        this.batchSize = batchSize.value();
    }

    @Override
    public CompletableFuture<List<WindowResult>> run(List<MrcWindow> windows) {
        try {
            return CompletableFuture.completedFuture(runNow(windows));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private List<WindowResult> runNow(List<MrcWindow> windows) {
        Integer[] order = new Integer[windows.size()];
        Arrays.setAll(order, i -> i);
        Arrays.sort(order, Comparator.comparingInt(i -> windows.get(i).length()));
        WindowResult[] out = new WindowResult[windows.size()];
        for (int from = 0; from < order.length; from += batchSize) {
            int to = Math.min(order.length, from + batchSize);
            List<MrcWindow> batch = new ArrayList<>(to - from);
            for (int k = from; k < to; k++) {
                batch.add(windows.get(order[k]));
            }
            long start = System.nanoTime();
            List<WindowLogits> logits = session.run(batch);
            long modelNanos = System.nanoTime() - start;
            for (int k = from; k < to; k++) {
                out[order[k]] = new WindowResult(logits.get(k - from), to - from, 0, modelNanos);
            }
        }
        return Arrays.asList(out);
    }
}
