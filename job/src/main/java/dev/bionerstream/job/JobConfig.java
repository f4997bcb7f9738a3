package dev.bionerstream.job;

import static dev.bionerstream.job.JobOptions.*;

import dev.bionerstream.kafka.KafkaConfig;
import dev.bionerstream.kafka.KafkaOptions;
import dev.bionerstream.options.OptionChecks;
import dev.bionerstream.options.OptionKeys;
import dev.bionerstream.records.InputFormat;
import dev.bionerstream.serving.BundleChoice;
import dev.bionerstream.serving.ModelRoutes;
import dev.bionerstream.serving.ServingConfig;
import dev.bionerstream.serving.ServingOptions;
import dev.bionerstream.sink.opensearch.OpenSearchSinkConfig;
import dev.bionerstream.sink.opensearch.OpenSearchSinkOptions;
import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;

/** The annotation job's settings, read once from a Flink {@link Configuration} and validated. */
public record JobConfig(
        KafkaConfig kafka,
        String entitiesTopic,
        String documentsTopic,
        StartingOffsets startingOffsets,
        InputFormat inputFormat,
        ModelRoutes models,
        int asyncCapacity,
        Duration asyncTimeout,
        int asyncRetries,
        OpenSearchSinkConfig openSearch)
        implements Serializable {

    /** Every option the job reads: the shared Kafka ones, its own, the model's and the index sink's. */
    public static final List<ConfigOption<?>> OPTIONS = Stream.of(
                    KafkaOptions.ALL, JobOptions.ALL, ServingOptions.ALL, OpenSearchSinkOptions.ALL)
            .flatMap(List::stream)
            .toList();

    /** {@code bundles}: what serves where {@code model.bundle} is unset ({@link BundleChoice}). */
    public static JobConfig from(Configuration c, BundleChoice bundles) {
        OptionKeys.requireKnown(c, OPTIONS, KafkaOptions.KAFKA_PROPERTIES_PREFIX);
        KafkaConfig kafka = KafkaConfig.from(c);
        OptionChecks.requirePositive(ASYNC_CAPACITY, c.get(ASYNC_CAPACITY));
        OptionChecks.requireNotNegative(ASYNC_RETRIES, c.get(ASYNC_RETRIES));
        return new JobConfig(
                kafka,
                c.get(ENTITIES_TOPIC),
                c.get(DOCUMENTS_TOPIC),
                StartingOffsets.parse(STARTING_OFFSETS.key(), c.get(STARTING_OFFSETS)),
                InputFormat.parse(INPUT_FORMAT.key(), c.get(INPUT_FORMAT)),
                ModelRoutes.from(c, bundles),
                c.get(ASYNC_CAPACITY),
                c.get(ASYNC_TIMEOUT),
                c.get(ASYNC_RETRIES),
                OpenSearchSinkConfig.isEnabled(c) ? OpenSearchSinkConfig.from(c) : null);
    }

    /** The default model's settings (the one for records of no configured language). */
    public ServingConfig serving() {
        return models.defaultModel();
    }

    /** The search-index sink's settings, when {@code opensearch.hosts} (or OPENSEARCH_HOSTS) is set. */
    public Optional<OpenSearchSinkConfig> openSearchSink() {
        return Optional.ofNullable(openSearch);
    }
}
