package dev.bionerstream.ingest;

import static dev.bionerstream.ingest.IngestOptions.*;

import dev.bionerstream.job.JobConfig;
import dev.bionerstream.job.JobOptions;
import java.io.Serializable;
import java.time.Duration;
import org.apache.flink.configuration.Configuration;

/**
 * The ingest job's settings: the watched directory, and the annotation job's Kafka, checkpoint and
 * parallelism settings (its input topic is where ingest writes).
 */
public record IngestConfig(JobConfig kafka, String directory, Duration monitorInterval, Duration minFileAge)
        implements Serializable {
    /** The default consumer group id (the checkpoint sub-directory) of the ingest job: not the annotation job's. */
    public static final String DEFAULT_GROUP_ID = "bioner-stream-ingest";

    public static IngestConfig from(Configuration c) {
        Configuration shared = new Configuration(c);
        if (!c.contains(JobOptions.GROUP_ID)) {
            shared.set(JobOptions.GROUP_ID, DEFAULT_GROUP_ID);
        }
        JobConfig kafka = JobConfig.from(shared, ALL);
        String dir = c.get(DIRECTORY);
        if (dir == null || dir.isBlank()) {
            throw new IllegalArgumentException(
                    "--" + DIRECTORY.key() + " is required: the directory PubMed files are dropped into");
        }
        if (c.get(MONITOR_INTERVAL).isNegative() || c.get(MONITOR_INTERVAL).isZero()) {
            throw new IllegalArgumentException("--" + MONITOR_INTERVAL.key() + " must be positive");
        }
        return new IngestConfig(kafka, dir.trim(), c.get(MONITOR_INTERVAL), c.get(MIN_FILE_AGE));
    }
}
