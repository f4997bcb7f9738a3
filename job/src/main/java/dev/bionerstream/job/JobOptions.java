package dev.bionerstream.job;

import dev.bionerstream.records.InputFormat;
import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * The annotation job's own settings, as Flink {@link ConfigOption}s. Command-line arguments
 * {@code --key value} (or {@code --key=value}) are read into a Flink configuration and turned once
 * into a {@link JobConfig}. The Kafka, checkpoint and parallelism settings it shares with the feed
 * job are {@link dev.bionerstream.kafka.KafkaOptions}; the model's are
 * {@link dev.bionerstream.serving.ServingOptions}, the index sink's
 * {@link dev.bionerstream.sink.opensearch.OpenSearchSinkOptions}.
 */
public final class JobOptions {
    private JobOptions() {}

    public static final ConfigOption<String> ENTITIES_TOPIC = ConfigOptions.key("kafka.entities-topic")
            .stringType()
            .defaultValue("entities")
            .withDescription("Topic of EntityEvent records, keyed by document id.");
    public static final ConfigOption<String> DOCUMENTS_TOPIC = ConfigOptions.key("kafka.documents-topic")
            .stringType()
            .defaultValue("entity-documents")
            .withDescription("Topic of DocumentEntities records, keyed by document id.");
    public static final ConfigOption<String> STARTING_OFFSETS = ConfigOptions.key("kafka.starting-offsets")
            .stringType()
            .defaultValue("committed")
            .withDescription(
                    "earliest, latest, committed (earliest when the group has none) or timestamp:<epoch-millis>. "
                            + "Used only when the job starts without a savepoint.");
    public static final ConfigOption<InputFormat> INPUT_FORMAT = ConfigOptions.key("kafka.input-format")
            .enumType(InputFormat.class)
            .defaultValue(InputFormat.JSON)
            .withDescription("json (UTF-8 JSON object) or avro (binary Abstract, no registry header).");

    public static final ConfigOption<Integer> ASYNC_CAPACITY = ConfigOptions.key("async.capacity")
            .intType()
            .defaultValue(64)
            .withDescription(
                    "Documents in flight per subtask (async I/O capacity); bounds memory and gives backpressure. "
                            + "Their windows are what the micro-batcher picks batches of similar length from: "
                            + "fewer documents, more padding (32: 4% of the computed tokens, 64: 2%).");
    public static final ConfigOption<Duration> ASYNC_TIMEOUT = ConfigOptions.key("async.timeout")
            .durationType()
            .defaultValue(Duration.ofMinutes(10))
            .withDescription(
                    "Time allowed to one document, all its attempts together (Flink's async timeout covers the retries). "
                            + "A safety net against a stuck model: slowness gives backpressure (async.capacity), not timeouts. "
                            + "A document that times out has its queued model passes withdrawn and goes to the dead-letter topic.");
    public static final ConfigOption<Integer> ASYNC_RETRIES = ConfigOptions.key("async.retries")
            .intType()
            .defaultValue(2)
            .withDescription(
                    "Retries of a document whose inference failed before it goes to the dead-letter topic (within async.timeout).");

    public static final ConfigOption<Boolean> LINK_ENABLED = ConfigOptions.key("link.enabled")
            .booleanType()
            .defaultValue(true)
            .withDescription(
                    "Link each mention to its concept (MeSH, NCBI Gene, NCBI Taxonomy; the link.* options) in the "
                            + "'link concepts' stage; a type without a vocabulary (the Spanish model's) stays unlinked. "
                            + "false: the link fields of every event are null.");

    /** Every option above, for validating the keys a user gives. */
    public static final List<ConfigOption<?>> ALL = List.of(
            ENTITIES_TOPIC,
            DOCUMENTS_TOPIC,
            STARTING_OFFSETS,
            INPUT_FORMAT,
            ASYNC_CAPACITY,
            ASYNC_TIMEOUT,
            ASYNC_RETRIES,
            LINK_ENABLED);
}
