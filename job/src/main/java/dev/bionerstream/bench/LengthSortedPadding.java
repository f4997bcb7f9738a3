package dev.bionerstream.bench;

import dev.bionerstream.features.MrcWindow;
import java.util.List;

/**
 * Tokens computed when windows run in globally length-sorted batches, each padded to its longest:
 * the bare session's batching, the yardstick for the stream's padding.
 */
final class LengthSortedPadding {
    private LengthSortedPadding() {}

    static long paddedTokens(List<MrcWindow> windows, int batchSize) {
        int[] lengths = windows.stream().mapToInt(MrcWindow::length).sorted().toArray();
        long padded = 0;
        for (int from = 0; from < lengths.length; from += batchSize) {
            int to = Math.min(lengths.length, from + batchSize);
            padded += (long) (to - from) * lengths[to - 1];
        }
        return padded;
    }

    /** Real tokens over computed tokens. */
    static double efficiency(List<MrcWindow> windows, int batchSize) {
        long padded = paddedTokens(windows, batchSize);
        return padded == 0
                ? 1
                : (double) windows.stream().mapToLong(MrcWindow::length).sum() / padded;
    }
}
