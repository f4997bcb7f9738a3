package dev.bionerstream.job;

import dev.bionerstream.avro.DeadLetter;
import dev.bionerstream.avro.EntityEvent;
import dev.bionerstream.kafka.Checkpointing;
import dev.bionerstream.kafka.KafkaIO;
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
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        wire(env, cfg, SessionFactory.ONNX_RUNTIME);
        env.execute(NAME);
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
