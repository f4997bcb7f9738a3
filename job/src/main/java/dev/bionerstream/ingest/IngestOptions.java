package dev.bionerstream.ingest;

import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/** The ingest job's own keys; Kafka, checkpoint and parallelism keys are the annotation job's. */
public final class IngestOptions {
    private IngestOptions() {}

    public static final ConfigOption<String> DIRECTORY = ConfigOptions.key("ingest.directory")
            .stringType()
            .noDefaultValue()
            .withDescription(
                    "Directory (or file-system URI: file:///, s3://, hdfs://) watched for PubMed .xml / .xml.gz files. Required.");
    public static final ConfigOption<Duration> MONITOR_INTERVAL = ConfigOptions.key("ingest.monitor-interval")
            .durationType()
            .defaultValue(Duration.ofSeconds(10))
            .withDescription("How often the directory is scanned for new files.");
    public static final ConfigOption<Duration> MIN_FILE_AGE = ConfigOptions.key("ingest.min-file-age")
            .durationType()
            .defaultValue(Duration.ofSeconds(5))
            .withDescription(
                    "A file is read once unchanged for this long, so a file still being copied in is not read half-written.");

    public static final List<ConfigOption<?>> ALL = List.of(DIRECTORY, MONITOR_INTERVAL, MIN_FILE_AGE);
}
