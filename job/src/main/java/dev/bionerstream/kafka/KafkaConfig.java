package dev.bionerstream.kafka;

import static dev.bionerstream.kafka.KafkaOptions.*;

import dev.bionerstream.options.OptionChecks;
import java.io.Serializable;
import java.time.Duration;
import java.util.Locale;
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
        String checkpointDir)
        implements Serializable {

    /** The settings in {@code c}; the caller has refused keys it does not know ({@link dev.bionerstream.options.OptionKeys}). */
    public static KafkaConfig from(Configuration c) {
        String servers = c.get(BOOTSTRAP_SERVERS);
        if (servers == null || servers.isBlank()) {
            throw new IllegalArgumentException("--" + BOOTSTRAP_SERVERS.key() + " is required, e.g. --"
                    + BOOTSTRAP_SERVERS.key() + " localhost:9092");
        }
        DeliveryGuarantee guarantee =
                switch (c.get(DELIVERY_GUARANTEE).trim().toLowerCase(Locale.ROOT)) {
                    case "exactly-once", "exactly_once" -> DeliveryGuarantee.EXACTLY_ONCE;
                    case "at-least-once", "at_least_once" -> DeliveryGuarantee.AT_LEAST_ONCE;
                    case "none" -> DeliveryGuarantee.NONE;
                    default -> throw new IllegalArgumentException(
                            "--" + DELIVERY_GUARANTEE.key() + " must be exactly-once, at-least-once or none");
                };
        OptionChecks.requirePositive(PARALLELISM, c.get(PARALLELISM));
        Map<String, String> kafka = new TreeMap<>();
        c.toMap().forEach((k, v) -> {
            if (k.startsWith(KAFKA_PROPERTIES_PREFIX)) {
                kafka.put(k.substring(KAFKA_PROPERTIES_PREFIX.length()), v);
            }
        });
        return new KafkaConfig(
                servers.trim(),
                c.get(INPUT_TOPIC),
                c.get(DEAD_LETTER_TOPIC),
                outputFormat(c),
                c.get(GROUP_ID),
                guarantee,
                c.get(TRANSACTIONAL_ID_PREFIX),
                c.get(TRANSACTION_TIMEOUT),
                Map.copyOf(kafka),
                c.get(PARALLELISM),
                c.get(CHECKPOINT_INTERVAL),
                c.getOptional(CHECKPOINT_DIR)
                        .map(d -> d.replaceAll("/+$", "") + "/" + c.get(GROUP_ID))
                        .orElse(null));
    }

    /** Flink's own message names neither the option as a user writes it nor the values it takes. */
    private static OutputFormat outputFormat(Configuration c) {
        try {
            return c.get(OUTPUT_FORMAT);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--" + OUTPUT_FORMAT.key() + " must be avro or json, got "
                    + c.toMap().get(OUTPUT_FORMAT.key()));
        }
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
