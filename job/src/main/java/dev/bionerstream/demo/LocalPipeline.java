package dev.bionerstream.demo;

import dev.bionerstream.avro.DeadLetter;
import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.job.BionerJob;
import dev.bionerstream.job.JobConfig;
import dev.bionerstream.job.JobOptions;
import dev.bionerstream.kafka.KafkaOptions;
import dev.bionerstream.kafka.OutputFormat;
import dev.bionerstream.serving.BundleChoice;
import dev.bionerstream.serving.SessionFactory;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The whole pipeline on this machine: an embedded Kafka broker with the job's topics, the job on
 * a Flink environment the caller chose (the demo's local cluster with its dashboard, a test's
 * MiniCluster), reading from the start of the input topic, and readers of its outputs.
 */
public final class LocalPipeline implements AutoCloseable {
    public final EmbeddedKafka kafka;
    public final JobConfig config;
    public final JobClient job;
    public final TopicReader<DocumentEntities> documents;
    public final TopicReader<DeadLetter> deadLetters;
    /** Whether closing the pipeline closes the broker: not one the caller shares with others. */
    private final boolean ownsBroker;

    private LocalPipeline(EmbeddedKafka kafka, JobConfig config, JobClient job, boolean ownsBroker) {
        this.kafka = kafka;
        this.ownsBroker = ownsBroker;
        this.config = config;
        this.job = job;
        OutputFormat format = config.kafka().outputFormat();
        this.documents =
                new TopicReader<>(kafka.bootstrapServers(), config.documentsTopic(), DocumentEntities.class, format);
        this.deadLetters =
                new TopicReader<>(kafka.bootstrapServers(), config.kafka().deadLetterTopic(), DeadLetter.class, format);
    }

    /**
     * Starts the broker and the job with {@code options} (the job's keys; Kafka's are filled in) and
     * the bundles {@code bundles} picks on {@code env}.
     */
    public static LocalPipeline start(
            Configuration options, BundleChoice bundles, StreamExecutionEnvironment env, SessionFactory model)
            throws Exception {
        EmbeddedKafka kafka = EmbeddedKafka.start();
        return start(kafka, kafka.bootstrapServers(), options, bundles, env, model);
    }

    /**
     * On a broker the caller started, which the job reaches at {@code bootstrapServers} (a test's
     * proxy in front of it); closing the pipeline closes the broker.
     */
    public static LocalPipeline start(
            EmbeddedKafka kafka,
            String bootstrapServers,
            Configuration options,
            BundleChoice bundles,
            StreamExecutionEnvironment env,
            SessionFactory model)
            throws Exception {
        try {
            return start(kafka, bootstrapServers, options, bundles, env, model, true);
        } catch (Exception | Error e) {
            kafka.close();
            throw e;
        }
    }

    /**
     * On a broker the caller shares with others and keeps running after the pipeline closes: {@code
     * options} name topics, consumer group and transactional ids of the pipeline's own.
     */
    public static LocalPipeline onSharedBroker(
            EmbeddedKafka kafka,
            Configuration options,
            BundleChoice bundles,
            StreamExecutionEnvironment env,
            SessionFactory model)
            throws Exception {
        return start(kafka, kafka.bootstrapServers(), options, bundles, env, model, false);
    }

    private static LocalPipeline start(
            EmbeddedKafka kafka,
            String bootstrapServers,
            Configuration options,
            BundleChoice bundles,
            StreamExecutionEnvironment env,
            SessionFactory model,
            boolean ownsBroker)
            throws Exception {
        Configuration args = new Configuration(options);
        args.set(KafkaOptions.BOOTSTRAP_SERVERS, bootstrapServers);
        args.set(JobOptions.STARTING_OFFSETS, "earliest");
        JobConfig cfg = JobConfig.from(args, bundles);
        kafka.createTopics(
                1,
                cfg.kafka().inputTopic(),
                cfg.entitiesTopic(),
                cfg.documentsTopic(),
                cfg.kafka().deadLetterTopic());
        kafka.awaitGroupCoordinator(cfg.kafka().groupId());
        BionerJob.wire(env, cfg, model);
        return new LocalPipeline(kafka, cfg, env.executeAsync(BionerJob.NAME + " (local)"), ownsBroker);
    }

    public void produce(List<String> records) {
        kafka.produce(config.kafka().inputTopic(), records);
    }

    @Override
    public void close() throws Exception {
        try {
            documents.close();
            deadLetters.close();
            job.cancel().get();
        } finally {
            if (ownsBroker) {
                kafka.close();
            }
        }
    }
}
