package dev.bionerstream.job;

import static dev.bionerstream.job.JobOptions.*;

import dev.bionerstream.kafka.KafkaConfig;
import dev.bionerstream.kafka.KafkaOptions;
import dev.bionerstream.linking.LinkSettings;
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
        LinkSettings link,
        OpenSearchSinkConfig openSearch)
        implements Serializable {

    /** Every option the job reads: the shared Kafka ones, its own, the model's, the linker's and the index sink's. */
    public static final List<ConfigOption<?>> OPTIONS = Stream.of(
                    KafkaOptions.ALL, JobOptions.ALL, ServingOptions.ALL, LinkOptions.ALL, OpenSearchSinkOptions.ALL)
            .flatMap(List::stream)
            .toList();

    /** {@code bundles}: what serves where {@code model.bundle} is unset ({@link BundleChoice}). */
    public static JobConfig from(Configuration c, BundleChoice bundles) {
        OptionKeys.requireKnown(c, OPTIONS, KafkaOptions.KAFKA_PROPERTIES_PREFIX);
        KafkaConfig kafka = KafkaConfig.from(c);
        OptionChecks.requirePositive(ASYNC_CAPACITY, c.get(ASYNC_CAPACITY));
        OptionChecks.requireNotNegative(ASYNC_RETRIES, c.get(ASYNC_RETRIES), "a failed document is not retried");
        return new JobConfig(
                kafka,
                c.get(ENTITIES_TOPIC),
                c.get(DOCUMENTS_TOPIC),
                StartingOffsets.parse(STARTING_OFFSETS, c.get(STARTING_OFFSETS)),
                OptionChecks.oneOf(c, INPUT_FORMAT),
                ModelRoutes.from(c, bundles),
                c.get(ASYNC_CAPACITY),
                c.get(ASYNC_TIMEOUT),
                c.get(ASYNC_RETRIES),
                c.get(LINK_ENABLED) ? LinkOptions.settings(c) : null,
                OpenSearchSinkConfig.isEnabled(c) ? OpenSearchSinkConfig.from(c) : null);
    }

    /** How mentions are linked to concepts, unless {@code link.enabled} is false. */
    public Optional<LinkSettings> linking() {
        return Optional.ofNullable(link);
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
