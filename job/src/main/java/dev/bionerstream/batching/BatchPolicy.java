package dev.bionerstream.batching;

/**
 * Which waiting windows may share a batch, named for the device it suits; the serving configuration
 * chooses it from the device the model's session runs on ({@code ServingConfig.batching}). Either
 * way a batch closes at its maximum size or when its oldest window has waited the maximum wait, and
 * takes the windows nearest in length to one of the oldest request's ({@link BatchQueue}).
 */
public enum BatchPolicy {
    /** A GPU: throughput grows with the batch, so a batch fills up to its maximum size. */
    FILL(0),
    /**
     * A CPU: a padded position costs as much as a real one there, and a batch of 4 costs per position
     * what one of 32 does (model-export/docs/experiments.md, "Batches on a CPU"), so a batch holds only
     * windows at least 80% as long as its longest (at least 80% of the positions it computes are
     * real); a window far shorter goes into a batch of its own length instead of being padded.
     */
    SIMILAR_LENGTHS(0.8);

    private final double minLengthRatio;

    BatchPolicy(double minLengthRatio) {
        this.minLengthRatio = minLengthRatio;
    }

    /** The shortest window a batch may hold, as a fraction of its longest; 0 for any. */
    double minLengthRatio() {
        return minLengthRatio;
    }
}
