package dev.bionerstream.kafka;

import static dev.bionerstream.kafka.KafkaOptions.*;

import dev.bionerstream.options.OptionChecks;
import java.io.Serializable;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.DeliveryGuarantee;

/**
 * The {@link KafkaOptions} of a job, read once and validated: what the annotation job and the feed
 * job both need to write to (and read from) the topics exactly once.
 */
public record KafkaConfig(
        String bootstrapServers,
        String inputTopic,
        String deadLetterTopic,
        OutputFormat outputFormat,
        String groupId,
        DeliveryGuarantee deliveryGuarantee,
        String transactionalIdPrefix,
        Duration transactionTimeout,
        Map<String, String> kafkaProperties,
        int parallelism,
        Duration checkpointInterval,
        String checkpointDir,
        boolean resumeFromCheckpoint)
        implements Serializable {

    /** The settings in {@code c}; the caller has refused keys it does not know ({@link dev.bionerstream.options.OptionKeys}). */
    public static KafkaConfig from(Configuration c) {
        String servers = OptionChecks.requireGiven(BOOTSTRAP_SERVERS, c.get(BOOTSTRAP_SERVERS), "localhost:9092");
        OptionChecks.requirePositive(PARALLELISM, c.get(PARALLELISM));
        if (c.get(RESUME_FROM_CHECKPOINT) && c.getOptional(CHECKPOINT_DIR).isEmpty()) {
            throw OptionChecks.refused(
                    RESUME_FROM_CHECKPOINT,
                    "needs --" + CHECKPOINT_DIR.key() + " (e.g. file:///shared/checkpoints, s3://bucket/checkpoints):"
                            + " the checkpoints to resume from are kept there");
        }
        Map<String, String> kafka = new TreeMap<>();
        c.toMap().forEach((k, v) -> {
            if (k.startsWith(KAFKA_PROPERTIES_PREFIX)) {
                kafka.put(k.substring(KAFKA_PROPERTIES_PREFIX.length()), v);
            }
        });
        return new KafkaConfig(
                servers,
                c.get(INPUT_TOPIC),
                c.get(DEAD_LETTER_TOPIC),
                OptionChecks.oneOf(c, OUTPUT_FORMAT),
                c.get(GROUP_ID),
                OptionChecks.oneOf(c, DELIVERY_GUARANTEE),
                c.get(TRANSACTIONAL_ID_PREFIX),
                c.get(TRANSACTION_TIMEOUT),
                Map.copyOf(kafka),
                c.get(PARALLELISM),
                c.get(CHECKPOINT_INTERVAL),
                c.getOptional(CHECKPOINT_DIR)
                        .map(d -> d.replaceAll("/+$", "") + "/" + c.get(GROUP_ID))
                        .orElse(null),
                c.get(RESUME_FROM_CHECKPOINT));
    }

    /** Where this job's checkpoints go ({@code job.checkpoint-dir}/{@code kafka.group-id}), when set. */
    public Optional<String> checkpointStorage() {
        return Optional.ofNullable(checkpointDir);
    }

    /** Kafka client properties passed through (security settings and the like). */
    public Properties kafkaClientProperties() {
        Properties p = new Properties();
        p.putAll(kafkaProperties);
        return p;
    }
}
