package dev.bionerstream.job;

import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * Every setting of the streaming job, as Flink {@link ConfigOption}s. Command-line arguments
 * {@code --key value} (or {@code --key=value}) are read into a Flink configuration and turned once
 * into a {@link JobConfig}. Keys starting with {@code kafka.properties.} are passed to the Kafka
 * clients unchanged (security.protocol, sasl.*, ssl.*), and {@code opensearch.*} configure the index.
 */
public final class JobOptions {
    private JobOptions() {}

    public static final ConfigOption<String> BOOTSTRAP_SERVERS = ConfigOptions.key("kafka.bootstrap-servers")
            .stringType().noDefaultValue().withDescription("Kafka bootstrap servers, host:port[,host:port].");
    public static final ConfigOption<String> INPUT_TOPIC = ConfigOptions.key("kafka.input-topic")
            .stringType().defaultValue("abstracts").withDescription("Topic of incoming abstracts.");
    public static final ConfigOption<String> ENTITIES_TOPIC = ConfigOptions.key("kafka.entities-topic")
            .stringType().defaultValue("entities").withDescription("Topic of EntityEvent records, keyed by document id.");
    public static final ConfigOption<String> DOCUMENTS_TOPIC = ConfigOptions.key("kafka.documents-topic")
            .stringType().defaultValue("entity-documents").withDescription("Topic of DocumentEntities records, keyed by document id.");
    public static final ConfigOption<String> DEAD_LETTER_TOPIC = ConfigOptions.key("kafka.dead-letter-topic")
            .stringType().defaultValue("abstracts-dlq").withDescription("Topic of DeadLetter records.");
    public static final ConfigOption<String> GROUP_ID = ConfigOptions.key("kafka.group-id")
            .stringType().defaultValue("bioner-stream").withDescription("Consumer group id.");
    public static final ConfigOption<String> STARTING_OFFSETS = ConfigOptions.key("kafka.starting-offsets")
            .stringType().defaultValue("committed").withDescription(
                    "earliest, latest, committed (earliest when the group has none) or timestamp:<epoch-millis>. "
                            + "Used only when the job starts without a savepoint.");
    public static final ConfigOption<String> INPUT_FORMAT = ConfigOptions.key("kafka.input-format")
            .stringType().defaultValue("json").withDescription("json (UTF-8 JSON object) or avro (binary Abstract, no registry header).");
    public static final ConfigOption<String> DELIVERY_GUARANTEE = ConfigOptions.key("kafka.delivery-guarantee")
            .stringType().defaultValue("exactly-once").withDescription("exactly-once, at-least-once or none.");
    public static final ConfigOption<String> TRANSACTIONAL_ID_PREFIX = ConfigOptions.key("kafka.transactional-id-prefix")
            .stringType().defaultValue("bioner-stream").withDescription("Prefix of the exactly-once sink's transactional ids; unique per job.");
    public static final ConfigOption<Duration> TRANSACTION_TIMEOUT = ConfigOptions.key("kafka.transaction-timeout")
            .durationType().defaultValue(Duration.ofMinutes(5)).withDescription(
                    "Kafka transaction timeout; must exceed the checkpoint interval and stay below the broker's transaction.max.timeout.ms.");

    public static final ConfigOption<String> BUNDLE = ConfigOptions.key("model.bundle")
            .stringType().noDefaultValue().withDescription("Model bundle directory; the bundle in the jar when unset.");
    public static final ConfigOption<String> DEVICE = ConfigOptions.key("model.device")
            .stringType().defaultValue("cpu").withDescription("cpu or cuda:N; falls back to cpu with a warning when CUDA cannot start.");
    public static final ConfigOption<Integer> THREADS = ConfigOptions.key("model.threads")
            .intType().defaultValue(0).withDescription("ONNX Runtime intra-op threads per TaskManager JVM; 0 = all cores.");
    public static final ConfigOption<List<String>> ENTITY_TYPES = ConfigOptions.key("model.entity-types")
            .stringType().asList().noDefaultValue().withDescription("Entity types to extract (comma-separated); all of the bundle's when unset.");

    public static final ConfigOption<Integer> BATCH_MAX_SIZE = ConfigOptions.key("batch.max-size")
            .intType().defaultValue(32).withDescription("A model batch closes at this many sequences (Triton max_batch_size).");
    public static final ConfigOption<Duration> BATCH_MAX_WAIT = ConfigOptions.key("batch.max-wait")
            .durationType().defaultValue(Duration.ofMillis(20)).withDescription(
                    "...or when its oldest sequence has waited this long (Triton max_queue_delay, Ray Serve batch_wait_timeout_s).");
    public static final ConfigOption<Integer> ASYNC_CAPACITY = ConfigOptions.key("async.capacity")
            .intType().defaultValue(32).withDescription("Documents in flight per subtask (async I/O capacity); bounds memory and gives backpressure.");
    public static final ConfigOption<Duration> ASYNC_TIMEOUT = ConfigOptions.key("async.timeout")
            .durationType().defaultValue(Duration.ofSeconds(120)).withDescription("Time allowed to one document's inference attempt.");
    public static final ConfigOption<Integer> ASYNC_RETRIES = ConfigOptions.key("async.retries")
            .intType().defaultValue(2).withDescription("Retries of a failed document before it goes to the dead-letter topic.");

    public static final ConfigOption<String> OPENSEARCH_HOSTS = ConfigOptions.key("opensearch.hosts")
            .stringType().noDefaultValue().withDescription("OpenSearch URLs (http[s]://host:port, comma-separated); the index sink is off when unset.");
    public static final ConfigOption<String> OPENSEARCH_INDEX = ConfigOptions.key("opensearch.index")
            .stringType().defaultValue("bioner-documents").withDescription("Index of per-document entity records (created with the mapping in the jar when missing).");
    public static final ConfigOption<String> OPENSEARCH_USERNAME = ConfigOptions.key("opensearch.username")
            .stringType().noDefaultValue().withDescription("Basic-auth user (use an environment variable from a Secret).");
    public static final ConfigOption<String> OPENSEARCH_PASSWORD = ConfigOptions.key("opensearch.password")
            .stringType().noDefaultValue().withDescription("Basic-auth password (use an environment variable from a Secret).");

    public static final ConfigOption<Integer> PARALLELISM = ConfigOptions.key("job.parallelism")
            .intType().defaultValue(1).withDescription("Parallelism of the job's operators.");
    public static final ConfigOption<Duration> CHECKPOINT_INTERVAL = ConfigOptions.key("job.checkpoint-interval")
            .durationType().defaultValue(Duration.ofSeconds(30)).withDescription("Checkpoint interval; exactly-once output is committed at each checkpoint.");

    // ---------------------------------------------------------------------------------------------
    // OpenSearch index sink: index creation, bulk requests, in-flight limit and retries
    // (read by dev.bionerstream.sink.opensearch.OpenSearchSinkConfig, with opensearch.hosts/index/
    // username/password above; OPENSEARCH_HOSTS, OPENSEARCH_USERNAME and OPENSEARCH_PASSWORD
    // environment variables stand in for unset hosts/username/password).
    // ---------------------------------------------------------------------------------------------

    public static final ConfigOption<Boolean> OPENSEARCH_CREATE_INDEX = ConfigOptions.key("opensearch.create-index")
            .booleanType().defaultValue(true).withDescription(
                    "Create the index with the mapping in the jar (opensearch/documents-mapping.json) when it is missing; "
                            + "turn off when the index or an index template is managed outside the job.");
    public static final ConfigOption<Integer> OPENSEARCH_BULK_MAX_ACTIONS = ConfigOptions.key("opensearch.bulk.max-actions")
            .intType().defaultValue(500).withDescription("Documents per bulk request at most.");
    public static final ConfigOption<org.apache.flink.configuration.MemorySize> OPENSEARCH_BULK_MAX_SIZE =
            ConfigOptions.key("opensearch.bulk.max-size").memoryType()
                    .defaultValue(org.apache.flink.configuration.MemorySize.parse("5mb")).withDescription(
                            "Bytes of JSON per bulk request at most; also the largest single document accepted.");
    public static final ConfigOption<Duration> OPENSEARCH_BULK_FLUSH_INTERVAL = ConfigOptions.key("opensearch.bulk.flush-interval")
            .durationType().defaultValue(Duration.ofSeconds(1)).withDescription(
                    "A partly filled bulk request is sent after this long; every checkpoint also flushes and waits for all requests.");
    public static final ConfigOption<Integer> OPENSEARCH_BULK_MAX_IN_FLIGHT = ConfigOptions.key("opensearch.bulk.max-in-flight")
            .intType().defaultValue(2).withDescription(
                    "Bulk requests in flight per sink subtask; when all are busy and the buffer is full the sink backpressures.");
    public static final ConfigOption<Integer> OPENSEARCH_BULK_MAX_BUFFERED = ConfigOptions.key("opensearch.bulk.max-buffered")
            .intType().defaultValue(2000).withDescription(
                    "Documents buffered per sink subtask (kept in checkpoints); must exceed opensearch.bulk.max-actions.");
    public static final ConfigOption<Integer> OPENSEARCH_MAX_RETRIES = ConfigOptions.key("opensearch.retry.max-retries")
            .intType().defaultValue(8).withDescription(
                    "Retries of a document whose indexing failed with a retryable error (HTTP 429, 5xx, connection); "
                            + "after that the job fails and restarts from its last checkpoint.");
    public static final ConfigOption<Duration> OPENSEARCH_RETRY_INITIAL_BACKOFF = ConfigOptions.key("opensearch.retry.initial-backoff")
            .durationType().defaultValue(Duration.ofMillis(100)).withDescription("Wait before the first retry; doubles with each further retry.");
    public static final ConfigOption<Duration> OPENSEARCH_RETRY_MAX_BACKOFF = ConfigOptions.key("opensearch.retry.max-backoff")
            .durationType().defaultValue(Duration.ofSeconds(10)).withDescription("Longest wait between two retries.");
    public static final ConfigOption<Duration> OPENSEARCH_REQUEST_TIMEOUT = ConfigOptions.key("opensearch.request-timeout")
            .durationType().defaultValue(Duration.ofSeconds(60)).withDescription(
                    "HTTP response timeout of one bulk request; a request without an answer by then is sent again.");
}
