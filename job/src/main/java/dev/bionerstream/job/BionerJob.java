package dev.bionerstream.job;

import dev.bionerstream.avro.DeadLetter;
import dev.bionerstream.avro.EntityEvent;
import dev.bionerstream.kafka.Checkpointing;
import dev.bionerstream.kafka.KafkaIO;
import dev.bionerstream.kafka.KafkaPermissions;
import dev.bionerstream.options.OptionKeys;
import dev.bionerstream.serving.BundleChoice;
import dev.bionerstream.serving.SessionFactory;
import dev.bionerstream.sink.opensearch.OpenSearchSink;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The streaming job's entry class (Flink application mode, {@code flink run}):
 * {@code --kafka.bootstrap-servers host:9092 [--key value ...]}, keys in {@link JobOptions}.
 */
public final class BionerJob {
    public static final String NAME = "bioner-stream";

    private BionerJob() {}

    public static void main(String[] args) throws Exception {
        JobConfig cfg = JobConfig.from(OptionKeys.parseArgs(args), BundleChoice.NO_INSTALLATION);
        checkKafkaPermissions(cfg);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        wire(env, cfg, SessionFactory.ONNX_RUNTIME);
        env.execute(NAME);
    }

    /**
     * Fails before the job starts when its Kafka user lacks an ACL it needs, naming each: the job
     * would otherwise fail at its first read or write and restart forever ({@link KafkaPermissions}).
     */
    public static void checkKafkaPermissions(JobConfig cfg) {
        new KafkaPermissions(cfg.kafka())
                .reads(cfg.kafka().inputTopic(), "the abstracts, kafka.input-topic")
                .writes(cfg.entitiesTopic(), "the entity events, kafka.entities-topic")
                .writes(cfg.documentsTopic(), "the documents, kafka.documents-topic")
                .writes(cfg.kafka().deadLetterTopic(), "the dead letters, kafka.dead-letter-topic")
                .check();
    }

    /** Kafka source -> {@link Topology} -> Kafka sinks (and the search index when configured), on {@code env}. */
    public static Topology.Outputs wire(StreamExecutionEnvironment env, JobConfig cfg, SessionFactory factory) {
        Checkpointing.configure(env, cfg.kafka());
        Topology.Outputs out = Topology.build(
                env.fromSource(
                                KafkaIO.source(
                                        cfg.kafka(), cfg.startingOffsets().initializer()),
                                WatermarkStrategy.noWatermarks(),
                                "Kafka: " + cfg.kafka().inputTopic())
                        .uid("source"),
                cfg,
                factory);
        out.documents()
                .sinkTo(DocumentsSink.of(cfg))
                .name("Kafka: " + cfg.documentsTopic())
                .uid("documents-sink");
        out.entities()
                .sinkTo(KafkaIO.sink(
                        cfg.kafka(), cfg.entitiesTopic(), EntityEvent.class, EntityEvent::getDocumentId, "entities"))
                .name("Kafka: " + cfg.entitiesTopic())
                .uid("entities-sink");
        out.deadLetters()
                .sinkTo(KafkaIO.sink(
                        cfg.kafka(),
                        cfg.kafka().deadLetterTopic(),
                        DeadLetter.class,
                        d -> d.getTopic() + "-" + d.getPartition() + "-" + d.getOffset(),
                        "dlq"))
                .name("Kafka: " + cfg.kafka().deadLetterTopic())
                .uid("dlq-sink");
        cfg.openSearchSink().ifPresent(os -> out.documents()
                .sinkTo(OpenSearchSink.of(os, new IndexUpdates()))
                .name("OpenSearch: " + os.index())
                .uid("opensearch-sink"));
        return out;
    }
}
