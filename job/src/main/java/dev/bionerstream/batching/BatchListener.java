package dev.bionerstream.batching;

/**
 * What a {@link MicroBatcher}'s model threads do, for whoever measures them (the job's metrics, a
 * benchmark): the batcher itself keeps no statistics. Called on the model threads, so a listener
 * must be cheap and must not block.
 */
public interface BatchListener {
    /** What a model thread is doing. */
    enum Phase {
        /** Nothing queued: upstream (source, parsing, tokenizing, in-order output, backpressure) sends nothing. */
        QUEUE_EMPTY,
        /** Windows queued, but too few for a batch and the oldest has not waited batch.max-wait yet. */
        FILLING,
        /** Choosing the next batch's windows. */
        FORMING,
        /** In the model session's run. */
        MODEL,
        /** Handing a batch's results over to be delivered to its requests. */
        DELIVERING
    }

    /**
     * Model thread {@code runner} (0 to {@link MicroBatcher#runners()} - 1) does {@code next} from
     * now on. A listener added to a running batcher is first told each thread's current phase.
     */
    default void phase(int runner, Phase next) {}

    /** The model has run a batch of windows of these token lengths (the batch is padded to the longest). */
    default void batchRan(int[] windowLengths) {}
}
