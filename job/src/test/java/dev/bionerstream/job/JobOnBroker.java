package dev.bionerstream.job;

import dev.bionerstream.avro.DeadLetter;
import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.demo.EmbeddedKafka;
import dev.bionerstream.demo.TopicReader;
import dev.bionerstream.serving.SessionFactory;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The job on the test's MiniCluster against an embedded broker that already holds {@code input}:
 * exactly-once sinks, 1-second checkpoints, restarts by a fixed-delay strategy, and readers of the
 * documents and dead-letter topics (read_committed).
 */
final class JobOnBroker implements AutoCloseable {
    final EmbeddedKafka kafka;
    final JobConfig config;
    final JobClient job;
    final TopicReader<DocumentEntities> documents;
    final TopicReader<DeadLetter> deadLetters;

    private JobOnBroker(EmbeddedKafka kafka, JobConfig config, JobClient job) {
        this.kafka = kafka;
        this.config = config;
        this.job = job;
        this.documents = new TopicReader<>(kafka.bootstrapServers(), config.documentsTopic(), DocumentEntities.class);
        this.deadLetters = new TopicReader<>(kafka.bootstrapServers(), config.deadLetterTopic(), DeadLetter.class);
    }

    static JobOnBroker start(
            List<String> input, Map<String, String> options, SessionFactory model, int restarts, String restartDelay)
            throws Exception {
        EmbeddedKafka kafka = EmbeddedKafka.start();
        try {
            Map<String, String> args = new HashMap<>(Map.of(
                    "kafka.bootstrap-servers", kafka.bootstrapServers(),
                    "kafka.starting-offsets", "earliest",
                    "job.checkpoint-interval", "1 s"));
            args.putAll(options);
            JobConfig cfg = JobConfig.from(Configuration.fromMap(args));
            kafka.createTopics(1, cfg.inputTopic(), cfg.entitiesTopic(), cfg.documentsTopic(), cfg.deadLetterTopic());
            kafka.produce(cfg.inputTopic(), input);
            Configuration flink = new Configuration();
            flink.setString("restart-strategy.type", "fixed-delay");
            flink.setString("restart-strategy.fixed-delay.attempts", String.valueOf(restarts));
            flink.setString("restart-strategy.fixed-delay.delay", restartDelay);
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(flink);
            BionerJob.wire(env, cfg, model);
            return new JobOnBroker(kafka, cfg, env.executeAsync(BionerJob.NAME + " test"));
        } catch (Exception | Error e) {
            kafka.close();
            throw e;
        }
    }

    /** The broker's port, to cut it. */
    int brokerPort() {
        return Integer.parseInt(kafka.bootstrapServers().replaceAll(".*:", ""));
    }

    @Override
    public void close() throws Exception {
        try {
            documents.close();
            deadLetters.close();
            job.cancel().get();
        } finally {
            kafka.close();
        }
    }
}
