package dev.bionerstream.ingest;

import static dev.bionerstream.ingest.IngestOptions.*;

import dev.bionerstream.kafka.KafkaConfig;
import dev.bionerstream.kafka.KafkaOptions;
import dev.bionerstream.options.OptionChecks;
import dev.bionerstream.options.OptionKeys;
import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;

/**
 * The ingest job's settings: the watched directory, and the Kafka, checkpoint and parallelism
 * settings every job on the topics shares (the input topic is where ingest writes).
 */
public record IngestConfig(KafkaConfig kafka, String directory, Duration monitorInterval, Duration minFileAge)
        implements Serializable {
    /** The default consumer group id (the checkpoint sub-directory) of the ingest job: not the annotation job's. */
    public static final String DEFAULT_GROUP_ID = "bioner-stream-ingest";

    /** The keys the ingest job reads, and no other: its own, then the shared Kafka ones. */
    public static final List<ConfigOption<?>> OPTIONS =
            Stream.concat(ALL.stream(), KafkaOptions.ALL.stream()).toList();

    public static IngestConfig from(Configuration c) {
        OptionKeys.requireKnown(c, OPTIONS, KafkaOptions.KAFKA_PROPERTIES_PREFIX);
        Configuration shared = new Configuration(c);
        if (!c.contains(KafkaOptions.GROUP_ID)) {
            shared.set(KafkaOptions.GROUP_ID, DEFAULT_GROUP_ID);
        }
        KafkaConfig kafka = KafkaConfig.from(shared);
        String dir = OptionChecks.requireGiven(DIRECTORY, c.get(DIRECTORY), "/data/pubmed");
        OptionChecks.requirePositive(MONITOR_INTERVAL, c.get(MONITOR_INTERVAL));
        return new IngestConfig(kafka, dir, c.get(MONITOR_INTERVAL), c.get(MIN_FILE_AGE));
    }
}
