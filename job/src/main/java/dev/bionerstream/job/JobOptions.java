package dev.bionerstream.job;

import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * Every setting of the streaming job, as Flink {@link ConfigOption}s. Command-line arguments
 * {@code --key value} (or {@code --key=value}) are read into a Flink configuration and turned once
 * into a {@link JobConfig}. Keys starting with {@code kafka.properties.} are passed to the Kafka
 * clients unchanged (security.protocol, sasl.*, ssl.*); the model's options are
 * {@link dev.bionerstream.serving.ServingOptions}, the index sink's
 * {@link dev.bionerstream.sink.opensearch.OpenSearchSinkOptions}.
 */
public final class JobOptions {
    private JobOptions() {}

    public static final ConfigOption<String> BOOTSTRAP_SERVERS = ConfigOptions.key("kafka.bootstrap-servers")
            .stringType()
            .noDefaultValue()
            .withDescription("Kafka bootstrap servers, host:port[,host:port].");
    public static final ConfigOption<String> INPUT_TOPIC = ConfigOptions.key("kafka.input-topic")
            .stringType()
            .defaultValue("abstracts")
            .withDescription("Topic of incoming abstracts.");
    public static final ConfigOption<String> ENTITIES_TOPIC = ConfigOptions.key("kafka.entities-topic")
            .stringType()
            .defaultValue("entities")
            .withDescription("Topic of EntityEvent records, keyed by document id.");
    public static final ConfigOption<String> DOCUMENTS_TOPIC = ConfigOptions.key("kafka.documents-topic")
            .stringType()
            .defaultValue("entity-documents")
            .withDescription("Topic of DocumentEntities records, keyed by document id.");
    public static final ConfigOption<String> DEAD_LETTER_TOPIC = ConfigOptions.key("kafka.dead-letter-topic")
            .stringType()
            .defaultValue("abstracts-dlq")
            .withDescription("Topic of DeadLetter records.");
    public static final ConfigOption<String> GROUP_ID = ConfigOptions.key("kafka.group-id")
            .stringType()
            .defaultValue("bioner-stream")
            .withDescription("Consumer group id.");
    public static final ConfigOption<String> STARTING_OFFSETS = ConfigOptions.key("kafka.starting-offsets")
            .stringType()
            .defaultValue("committed")
            .withDescription(
                    "earliest, latest, committed (earliest when the group has none) or timestamp:<epoch-millis>. "
                            + "Used only when the job starts without a savepoint.");
    public static final ConfigOption<String> INPUT_FORMAT = ConfigOptions.key("kafka.input-format")
            .stringType()
            .defaultValue("json")
            .withDescription("json (UTF-8 JSON object) or avro (binary Abstract, no registry header).");
    public static final ConfigOption<String> DELIVERY_GUARANTEE = ConfigOptions.key("kafka.delivery-guarantee")
            .stringType()
            .defaultValue("exactly-once")
            .withDescription("exactly-once, at-least-once or none.");
    public static final ConfigOption<String> TRANSACTIONAL_ID_PREFIX = ConfigOptions.key(
                    "kafka.transactional-id-prefix")
            .stringType()
            .defaultValue("bioner-stream")
            .withDescription("Prefix of the exactly-once sink's transactional ids; unique per job.");
    public static final ConfigOption<Duration> TRANSACTION_TIMEOUT = ConfigOptions.key("kafka.transaction-timeout")
            .durationType()
            .defaultValue(Duration.ofMinutes(5))
            .withDescription(
                    "Kafka transaction timeout; must exceed the checkpoint interval and stay below the broker's transaction.max.timeout.ms.");

    public static final ConfigOption<Integer> ASYNC_CAPACITY = ConfigOptions.key("async.capacity")
            .intType()
            .defaultValue(32)
            .withDescription(
                    "Documents in flight per subtask (async I/O capacity); bounds memory and gives backpressure.");
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

    public static final ConfigOption<Integer> PARALLELISM = ConfigOptions.key("job.parallelism")
            .intType()
            .defaultValue(1)
            .withDescription("Parallelism of the job's operators.");
    public static final ConfigOption<Duration> CHECKPOINT_INTERVAL = ConfigOptions.key("job.checkpoint-interval")
            .durationType()
            .defaultValue(Duration.ofSeconds(30))
            .withDescription("Checkpoint interval; exactly-once output is committed at each checkpoint.");

    public static final ConfigOption<String> CHECKPOINT_DIR = ConfigOptions.key("job.checkpoint-dir")
            .stringType()
            .noDefaultValue()
            .withDescription(
                    "Durable checkpoint storage (file:///path, s3://bucket/path); the job's checkpoints go to <dir>/<kafka.group-id> "
                            + "and are kept when the job is cancelled. Unset: Flink's execution.checkpointing.dir; "
                            + "./bioner run defaults to ~/.local/share/bioner-stream/checkpoints and resumes from the newest one.");

    /** Every option above, for validating the keys a user gives. */
    public static final List<ConfigOption<?>> ALL = List.of(
            BOOTSTRAP_SERVERS,
            INPUT_TOPIC,
            ENTITIES_TOPIC,
            DOCUMENTS_TOPIC,
            DEAD_LETTER_TOPIC,
            GROUP_ID,
            STARTING_OFFSETS,
            INPUT_FORMAT,
            DELIVERY_GUARANTEE,
            TRANSACTIONAL_ID_PREFIX,
            TRANSACTION_TIMEOUT,
            ASYNC_CAPACITY,
            ASYNC_TIMEOUT,
            ASYNC_RETRIES,
            PARALLELISM,
            CHECKPOINT_INTERVAL,
            CHECKPOINT_DIR);
}
