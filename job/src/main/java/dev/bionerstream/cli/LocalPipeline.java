package dev.bionerstream.cli;

import dev.bionerstream.avro.DeadLetter;
import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.demo.EmbeddedKafka;
import dev.bionerstream.demo.TopicReader;
import dev.bionerstream.job.BionerJob;
import dev.bionerstream.job.JobConfig;
import dev.bionerstream.serving.SessionFactory;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The whole pipeline on this machine: an embedded Kafka broker with the job's topics, and the job
 * on a local Flink cluster with its dashboard, reading from the start of the input topic.
 */
final class LocalPipeline implements AutoCloseable {
    final EmbeddedKafka kafka;
    final JobConfig config;
    final JobClient job;
    final TopicReader<DocumentEntities> documents;
    final TopicReader<DeadLetter> deadLetters;

    private LocalPipeline(EmbeddedKafka kafka, JobConfig config, JobClient job) {
        this.kafka = kafka;
        this.config = config;
        this.job = job;
        this.documents = new TopicReader<>(kafka.bootstrapServers(), config.documentsTopic(), DocumentEntities.class);
        this.deadLetters = new TopicReader<>(kafka.bootstrapServers(), config.deadLetterTopic(), DeadLetter.class);
    }

    /** Starts the broker and the job with {@code options} (the job's keys; Kafka's are filled in). */
    static LocalPipeline start(Configuration options, int dashboardPort) throws Exception {
        EmbeddedKafka kafka = EmbeddedKafka.start();
        try {
            Configuration args = new Configuration(options);
            args.setString("kafka.bootstrap-servers", kafka.bootstrapServers());
            args.setString("kafka.starting-offsets", "earliest");
            JobConfig cfg = JobConfig.from(args);
            kafka.createTopics(1, cfg.inputTopic(), cfg.entitiesTopic(), cfg.documentsTopic(), cfg.deadLetterTopic());
            Configuration flink = LocalCluster.configuration(dashboardPort);
            StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironmentWithWebUI(flink);
            BionerJob.wire(env, cfg, SessionFactory.ONNX_RUNTIME);
            return new LocalPipeline(kafka, cfg, env.executeAsync(BionerJob.NAME + " (local)"));
        } catch (Exception | Error e) {
            kafka.close();
            throw e;
        }
    }

    void produce(List<String> records) {
        kafka.produce(config.inputTopic(), records);
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
