package dev.bionerstream.job;

/** Names of the job's metrics, under the operator's "bioner" group in the Flink dashboard. */
public final class Metrics {
    public static final String GROUP = "bioner";
    /** Histogram: sequences in the model batches that served a document's windows. */
    public static final String BATCH_SIZE = "batchSize";
    /** Histogram: milliseconds a window waited in the micro-batcher queue. */
    public static final String QUEUE_WAIT_MS = "queueWaitMs";
    /** Histogram: milliseconds of the model call of a window's batch. */
    public static final String MODEL_LATENCY_MS = "modelLatencyMs";
    /** Meter: sequences (sentence x type windows) served per second. */
    public static final String SEQUENCES_PER_SECOND = "sequencesPerSecond";
    /** Meter: entities extracted per second. */
    public static final String ENTITIES_PER_SECOND = "entitiesPerSecond";
    /**
     * Gauge, per model (group "model" = its id): the share of the model threads' time spent in the
     * model over the last minute; the TaskManager's shared batcher, the same in each of its subtasks.
     */
    public static final String MODEL_BUSY = "modelBusy";
    /** Gauge, per model: real over computed (padded) tokens of its batches over the last minute. */
    public static final String PADDING_EFFICIENCY = "paddingEfficiency";
    /** Gauge: documents of this subtask whose model call has not completed (0 when the job is idle). */
    public static final String DOCUMENTS_IN_FLIGHT = "documentsInFlight";
    /** Counter: (sentence x type) passes the presence gate saved (0 without a gate). */
    public static final String GATE_SKIPPED_PASSES = "gateSkippedPasses";
    /**
     * Histogram: milliseconds from a record's timestamp on the input topic (its append time, as Kafka
     * stamps it) to its outcome leaving for the sinks. A read_committed consumer sees it at the first
     * checkpoint after that; an at-least-once one at once.
     */
    public static final String RECORD_AGE_MS = "recordAgeMs";
    /** Counter: mentions the "link concepts" stage linked to a concept. */
    public static final String MENTIONS_LINKED = "mentionsLinked";
    /** Counter: mentions of a type with a vocabulary left NIL (no name close enough). */
    public static final String MENTIONS_NIL = "mentionsNil";
    /** Histogram: milliseconds of linking one document's mentions. */
    public static final String LINK_LATENCY_MS = "linkLatencyMs";
    /** Counter: records sent to the dead-letter topic. */
    public static final String DEAD_LETTERS = "deadLetters";

    private Metrics() {}
}
