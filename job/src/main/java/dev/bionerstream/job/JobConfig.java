package dev.bionerstream.job;

import static dev.bionerstream.job.JobOptions.*;

import dev.bionerstream.kafka.OptionKeys;
import dev.bionerstream.serving.ModelRoutes;
import dev.bionerstream.serving.ServingConfig;
import dev.bionerstream.serving.ServingOptions;
import dev.bionerstream.sink.opensearch.OpenSearchSinkConfig;
import dev.bionerstream.sink.opensearch.OpenSearchSinkOptions;
import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.DeliveryGuarantee;

/** The job's settings, read once from a Flink {@link Configuration} and validated. */
public record JobConfig(
        String bootstrapServers,
        String inputTopic,
        String entitiesTopic,
        String documentsTopic,
        String deadLetterTopic,
        String groupId,
        String startingOffsets,
        String inputFormat,
        DeliveryGuarantee deliveryGuarantee,
        String transactionalIdPrefix,
        Duration transactionTimeout,
        Map<String, String> kafkaProperties,
        ModelRoutes models,
        int asyncCapacity,
        Duration asyncTimeout,
        int asyncRetries,
        int parallelism,
        Duration checkpointInterval,
        String checkpointDir,
        OpenSearchSinkConfig openSearch)
        implements Serializable {

    public static final String KAFKA_PROPERTIES_PREFIX = "kafka.properties.";

    /** Every option the job reads: its own, the model's and the index sink's. */
    public static final List<ConfigOption<?>> OPTIONS = Stream.of(
                    JobOptions.ALL, ServingOptions.ALL, OpenSearchSinkOptions.ALL)
            .flatMap(List::stream)
            .toList();

    public static JobConfig from(Configuration c) {
        return from(c, List.of());
    }

    /** The settings, where {@code c} may also hold {@code others} (another job's own keys on top of these). */
    public static JobConfig from(Configuration c, List<ConfigOption<?>> others) {
        OptionKeys.requireKnown(
                c, Stream.concat(OPTIONS.stream(), others.stream()).toList(), KAFKA_PROPERTIES_PREFIX);
        String servers = c.get(BOOTSTRAP_SERVERS);
        if (servers == null || servers.isBlank()) {
            throw new IllegalArgumentException("--" + BOOTSTRAP_SERVERS.key() + " is required, e.g. --"
                    + BOOTSTRAP_SERVERS.key() + " localhost:9092");
        }
        String offsets = c.get(STARTING_OFFSETS).trim().toLowerCase(Locale.ROOT);
        if (!offsets.matches("earliest|latest|committed|timestamp:\\d+")) {
            throw new IllegalArgumentException("--" + STARTING_OFFSETS.key()
                    + " must be earliest, latest, committed or timestamp:<epoch-millis>, got " + offsets);
        }
        String format = c.get(INPUT_FORMAT).trim().toLowerCase(Locale.ROOT);
        if (!format.equals("json") && !format.equals("avro")) {
            throw new IllegalArgumentException("--" + INPUT_FORMAT.key() + " must be json or avro, got " + format);
        }
        DeliveryGuarantee guarantee =
                switch (c.get(DELIVERY_GUARANTEE).trim().toLowerCase(Locale.ROOT)) {
                    case "exactly-once", "exactly_once" -> DeliveryGuarantee.EXACTLY_ONCE;
                    case "at-least-once", "at_least_once" -> DeliveryGuarantee.AT_LEAST_ONCE;
                    case "none" -> DeliveryGuarantee.NONE;
                    default -> throw new IllegalArgumentException(
                            "--" + DELIVERY_GUARANTEE.key() + " must be exactly-once, at-least-once or none");
                };
        ServingConfig.requirePositive(ASYNC_CAPACITY.key(), c.get(ASYNC_CAPACITY));
        ServingConfig.requirePositive(PARALLELISM.key(), c.get(PARALLELISM));
        if (c.get(ASYNC_RETRIES) < 0) {
            throw new IllegalArgumentException("--" + ASYNC_RETRIES.key() + " must be >= 0");
        }
        Map<String, String> kafka = new TreeMap<>();
        c.toMap().forEach((k, v) -> {
            if (k.startsWith(KAFKA_PROPERTIES_PREFIX)) {
                kafka.put(k.substring(KAFKA_PROPERTIES_PREFIX.length()), v);
            }
        });
        return new JobConfig(
                servers.trim(),
                c.get(INPUT_TOPIC),
                c.get(ENTITIES_TOPIC),
                c.get(DOCUMENTS_TOPIC),
                c.get(DEAD_LETTER_TOPIC),
                c.get(GROUP_ID),
                offsets,
                format,
                guarantee,
                c.get(TRANSACTIONAL_ID_PREFIX),
                c.get(TRANSACTION_TIMEOUT),
                Map.copyOf(kafka),
                ModelRoutes.from(c),
                c.get(ASYNC_CAPACITY),
                c.get(ASYNC_TIMEOUT),
                c.get(ASYNC_RETRIES),
                c.get(PARALLELISM),
                c.get(CHECKPOINT_INTERVAL),
                c.getOptional(CHECKPOINT_DIR)
                        .map(d -> d.replaceAll("/+$", "") + "/" + c.get(GROUP_ID))
                        .orElse(null),
                OpenSearchSinkConfig.isEnabled(c) ? OpenSearchSinkConfig.from(c) : null);
    }

    /** The default model's settings (the one for records of no configured language). */
    public ServingConfig serving() {
        return models.defaultModel();
    }

    /** Where this job's checkpoints go ({@code job.checkpoint-dir}/{@code kafka.group-id}), when set. */
    public Optional<String> checkpointStorage() {
        return Optional.ofNullable(checkpointDir);
    }

    /** The search-index sink's settings, when {@code opensearch.hosts} (or OPENSEARCH_HOSTS) is set. */
    public Optional<OpenSearchSinkConfig> openSearchSink() {
        return Optional.ofNullable(openSearch);
    }

    /** Kafka client properties passed through (security settings and the like). */
    public Properties kafkaClientProperties() {
        Properties p = new Properties();
        p.putAll(kafkaProperties);
        return p;
    }

    /** Reads {@code --key value} and {@code --key=value} pairs into a Flink configuration. */
    public static Configuration parseArgs(String... args) {
        Configuration c = new Configuration();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--") || a.length() == 2) {
                throw new IllegalArgumentException("expected --key value, got '" + a + "'");
            }
            int eq = a.indexOf('=');
            if (eq > 0) {
                c.setString(a.substring(2, eq), a.substring(eq + 1));
            } else if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
                c.setString(a.substring(2), args[++i]);
            } else {
                throw new IllegalArgumentException("--" + a.substring(2) + " needs a value: --" + a.substring(2)
                        + " VALUE or --" + a.substring(2) + "=VALUE");
            }
        }
        return c;
    }
}
