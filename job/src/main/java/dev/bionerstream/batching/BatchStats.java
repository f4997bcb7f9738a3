package dev.bionerstream.batching;

import java.util.concurrent.atomic.LongAdder;

/**
 * What a batcher has run, as its listener: batches, windows, and real versus padded tokens (a batch
 * is padded to its longest window), from which padding efficiency and mean batch size follow.
 */
public final class BatchStats implements BatchListener {
    private final LongAdder batches = new LongAdder();
    private final LongAdder windows = new LongAdder();
    private final LongAdder tokens = new LongAdder();
    private final LongAdder paddedTokens = new LongAdder();

    @Override
    public void batchRan(int[] lengths) {
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
    }

    public Counts snapshot() {
        return new Counts(batches.sum(), windows.sum(), tokens.sum(), paddedTokens.sum());
    }

    /** Counts at one moment; {@link #minus} gives those of a period. */
    public record Counts(long batches, long windows, long tokens, long paddedTokens) {
        public Counts minus(Counts earlier) {
            return new Counts(
                    batches - earlier.batches,
                    windows - earlier.windows,
                    tokens - earlier.tokens,
                    paddedTokens - earlier.paddedTokens);
        }

        /** Real tokens over computed (padded) tokens; 1 when nothing ran. */
        public double paddingEfficiency() {
            return paddedTokens == 0 ? 1 : (double) tokens / paddedTokens;
        }

        public double meanBatchSize() {
            return batches == 0 ? 0 : (double) windows / batches;
        }
    }
}
