package dev.bionerstream.serving;

import java.util.concurrent.atomic.LongAdder;

/**
 * What a batcher has run: batches, windows, and real versus padded tokens (a batch is padded to
 * its longest window), from which the stream's padding efficiency and mean batch size follow.
 */
public final class BatchStats {
    private final LongAdder batches = new LongAdder();
    private final LongAdder windows = new LongAdder();
    private final LongAdder tokens = new LongAdder();
    private final LongAdder paddedTokens = new LongAdder();
    private final LongAdder modelNanos = new LongAdder();

    void record(int[] lengths, long nanos) {
        int longest = 0;
        long sum = 0;
        for (int l : lengths) {
            longest = Math.max(longest, l);
            sum += l;
        }
        batches.increment();
        windows.add(lengths.length);
        tokens.add(sum);
        paddedTokens.add((long) longest * lengths.length);
        modelNanos.add(nanos);
    }

    public long batches() {
        return batches.sum();
    }

    public long windows() {
        return windows.sum();
    }

    /** Real tokens over computed (padded) tokens; 1 when nothing ran. */
    public double paddingEfficiency() {
        long padded = paddedTokens.sum();
        return padded == 0 ? 1 : (double) tokens.sum() / padded;
    }

    public double meanBatchSize() {
        long b = batches.sum();
        return b == 0 ? 0 : (double) windows.sum() / b;
    }

    /** Time spent inside the model, in seconds. */
    public double modelSeconds() {
        return modelNanos.sum() / 1e9;
    }
}
