package dev.bionerstream.ingest;

import dev.bionerstream.kafka.Checkpointing;
import dev.bionerstream.kafka.KafkaConfig;
import dev.bionerstream.kafka.KafkaIO;
import dev.bionerstream.kafka.KafkaPermissions;
import dev.bionerstream.options.OptionKeys;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.connector.file.src.enumerate.NonSplittingRecursiveEnumerator;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The PubMed feed adapter (entry class of {@code ingest}): a directory watched for PubMed XML files
 * -> {@code Abstract} records (JSON) and deletions (tombstones) on the input topic, malformed
 * articles and files on the dead-letter topic, exactly once.
 *
 * <p>One reader, files in name order: PubMed's file names follow its publication order, and a
 * revised citation must land after the version it replaces. Parsing is far cheaper than the
 * annotation job's inference, so one reader keeps up with it.
 */
public final class IngestJob {
    public static final String NAME = "bioner-stream-ingest";

    private IngestJob() {}

    public static void main(String[] args) throws Exception {
        IngestConfig cfg = IngestConfig.from(OptionKeys.parseArgs(args));
        checkKafkaPermissions(cfg);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        wire(env, cfg);
        env.execute(NAME);
    }

    /** Fails before the job starts when its Kafka user lacks an ACL it needs, naming each ({@link KafkaPermissions}). */
    public static void checkKafkaPermissions(IngestConfig cfg) {
        new KafkaPermissions(cfg.kafka())
                .writes(cfg.kafka().inputTopic(), "the abstracts, kafka.input-topic")
                .writes(cfg.kafka().deadLetterTopic(), "the dead letters, kafka.dead-letter-topic")
                .check();
    }

    public static void wire(StreamExecutionEnvironment env, IngestConfig cfg) {
        KafkaConfig kafka = cfg.kafka();
        Checkpointing.configure(env, kafka);
        SettledPubMedFiles filter = new SettledPubMedFiles(cfg.minFileAge());
        FileSource<IngestRecord> files = FileSource.forBulkFileFormat(
                        new PubMedFileFormat(kafka.outputFormat()), new Path(cfg.directory()))
                .monitorContinuously(cfg.monitorInterval())
                .setFileEnumerator(() -> new NonSplittingRecursiveEnumerator(filter))
                .setSplitAssigner(NameOrderAssigner::new)
                .build();
        env.fromSource(files, WatermarkStrategy.noWatermarks(), "PubMed files: " + cfg.directory())
                .setParallelism(1)
                .uid("pubmed-files")
                .sinkTo(KafkaIO.sink(
                        kafka, new IngestRecordSerializer(kafka.inputTopic(), kafka.deadLetterTopic()), "ingest"))
                .setParallelism(1)
                .name("Kafka: " + kafka.inputTopic() + " + " + kafka.deadLetterTopic())
                .uid("ingest-sink");
    }
}
