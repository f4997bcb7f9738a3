package dev.bionerstream.engine;

import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.inference.MrcSession;
import dev.bionerstream.inference.WindowLogits;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Runs many windows through a session in batches of similar length (little padding) and returns
 * the logits in the original order.
 */
public final class LengthSortedBatches {
    private LengthSortedBatches() {}

    public static List<WindowLogits> run(MrcSession session, List<MrcWindow> windows, int batchSize) {
        Integer[] order = new Integer[windows.size()];
        Arrays.setAll(order, i -> i);
        Arrays.sort(order, Comparator.comparingInt(i -> windows.get(i).length()));
        WindowLogits[] out = new WindowLogits[windows.size()];
        for (int from = 0; from < order.length; from += batchSize) {
            int to = Math.min(order.length, from + batchSize);
            List<MrcWindow> batch = new ArrayList<>(to - from);
            for (int k = from; k < to; k++) {
                batch.add(windows.get(order[k]));
            }
            List<WindowLogits> logits = session.run(batch);
            for (int k = from; k < to; k++) {
                out[order[k]] = logits.get(k - from);
            }
        }
        return Arrays.asList(out);
    }
}
