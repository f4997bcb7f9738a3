package dev.bionerstream.kafka;

import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;

/**
 * The settings every job on the topics shares (the annotation job and the PubMed feed): the Kafka
 * cluster, the input and dead-letter topics, the output format, delivery, checkpoints and parallelism. Keys starting
 * with {@value #KAFKA_PROPERTIES_PREFIX} are passed to the Kafka clients unchanged
 * (security.protocol, sasl.*, ssl.*).
 */
public final class KafkaOptions {
    private KafkaOptions() {}

    public static final String KAFKA_PROPERTIES_PREFIX = "kafka.properties.";

    public static final ConfigOption<String> BOOTSTRAP_SERVERS = ConfigOptions.key("kafka.bootstrap-servers")
            .stringType()
            .noDefaultValue()
            .withDescription("Kafka bootstrap servers, host:port[,host:port]. Required.");

    public static final ConfigOption<String> INPUT_TOPIC = ConfigOptions.key("kafka.input-topic")
            .stringType()
            .defaultValue("abstracts")
            .withDescription("Topic of incoming abstracts.");

    public static final ConfigOption<String> DEAD_LETTER_TOPIC = ConfigOptions.key("kafka.dead-letter-topic")
            .stringType()
            .defaultValue("abstracts-dlq")
            .withDescription("Topic of DeadLetter records: every input the job could not annotate, with the reason.");

    public static final ConfigOption<OutputFormat> OUTPUT_FORMAT = ConfigOptions.key("kafka.output-format")
            .enumType(OutputFormat.class)
            .defaultValue(OutputFormat.AVRO)
            .withDescription(
                    "How the entities, documents and dead-letter topics are written, with the fields of schemas/*.avsc: "
                            + "avro (binary, no registry header) or json (a JSON object per value, JSON Schemas in schemas/json/). "
                            + "The feed job writes its dead letters the same way: give both jobs the same value.");

    public static final ConfigOption<String> GROUP_ID = ConfigOptions.key("kafka.group-id")
            .stringType()
            .defaultValue("bioner-stream")
            .withDescription("Consumer group id.");

    public static final ConfigOption<DeliveryGuarantee> DELIVERY_GUARANTEE = ConfigOptions.key(
                    "kafka.delivery-guarantee")
            .enumType(DeliveryGuarantee.class)
            .defaultValue(DeliveryGuarantee.EXACTLY_ONCE)
            .withDescription("exactly-once, at-least-once or none.");

    public static final ConfigOption<String> TRANSACTIONAL_ID_PREFIX = ConfigOptions.key(
                    "kafka.transactional-id-prefix")
            .stringType()
            .defaultValue("bioner-stream")
            .withDescription("Prefix of the sinks' transactional ids; unique per job.");

    public static final ConfigOption<Duration> TRANSACTION_TIMEOUT = ConfigOptions.key("kafka.transaction-timeout")
            .durationType()
            .defaultValue(Duration.ofMinutes(5))
            .withDescription(
                    "Kafka transaction timeout: above the checkpoint interval plus the longest a TaskManager may stand still (GC pause, starved CPU, a stop-with-savepoint), below the broker's transaction.max.timeout.ms (15 min by default). A transaction open longer is aborted by the broker and its records are lost (docs/guarantees.md).");

    public static final ConfigOption<Integer> PARALLELISM = ConfigOptions.key("job.parallelism")
            .intType()
            .defaultValue(1)
            .withDescription("Parallelism of the job's operators.");

    public static final ConfigOption<Duration> CHECKPOINT_INTERVAL = ConfigOptions.key("job.checkpoint-interval")
            .durationType()
            .defaultValue(Duration.ofSeconds(30))
            .withDescription("Checkpoint interval; exactly-once output becomes visible at each checkpoint.");

    public static final ConfigOption<String> CHECKPOINT_DIR = ConfigOptions.key("job.checkpoint-dir")
            .stringType()
            .noDefaultValue()
            .withDescription(
                    "Durable checkpoint storage (file:///path, s3://bucket/path). When set, checkpoints go to <dir>/<kafka.group-id> and are kept when the job is cancelled or killed; ./bioner run sets ~/.local/share/bioner-stream/checkpoints and resumes from the newest one. Unset: where Flink's execution.checkpointing.dir says, under <dir>/<job id>, a new directory per submission.");

    public static final ConfigOption<Boolean> RESUME_FROM_CHECKPOINT = ConfigOptions.key("job.resume-from-checkpoint")
            .booleanType()
            .defaultValue(false)
            .withDescription(
                    "true: the job starts from the newest completed checkpoint under <job.checkpoint-dir>/<kafka.group-id> (the one a cancel or a crash left), with its Kafka offsets, the abstracts it was annotating and its open transactions, as ./bioner run does; with none there, from kafka.starting-offsets. A savepoint given at submission (flink run -s, the REST API's savepointPath) goes first. Needs job.checkpoint-dir, readable where the job's main() runs (the JobManager for a REST or dashboard submission, the client for flink run). false: a job started without a savepoint starts without state, from the consumer group's committed offsets, and loses the abstracts the cancelled job had in flight (docs/guarantees.md).");

    /** Every option above, for validating the keys a user gives. */
    public static final List<ConfigOption<?>> ALL = List.of(
            BOOTSTRAP_SERVERS,
            INPUT_TOPIC,
            DEAD_LETTER_TOPIC,
            OUTPUT_FORMAT,
            GROUP_ID,
            DELIVERY_GUARANTEE,
            TRANSACTIONAL_ID_PREFIX,
            TRANSACTION_TIMEOUT,
            PARALLELISM,
            CHECKPOINT_INTERVAL,
            CHECKPOINT_DIR,
            RESUME_FROM_CHECKPOINT);
}
