package dev.bionerstream.demo;

import dev.bionerstream.serving.BundleChoice;
import dev.bionerstream.serving.SessionFactory;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A test's {@link LocalPipeline} on the broker the integration tests share, on Kafka names of its own
 * ({@link TestTopics}), with the jar's bundles.
 */
public final class TestPipelines {
    private TestPipelines() {}

    /** The job with {@code options} on topics named after {@code name}, on ONNX Runtime in this JVM's environment. */
    public static LocalPipeline start(SharedService<EmbeddedKafka> kafka, String name, Configuration options)
            throws Exception {
        return start(
                kafka,
                name,
                options,
                StreamExecutionEnvironment.getExecutionEnvironment(),
                SessionFactory.ONNX_RUNTIME);
    }

    /** As {@link #start(SharedService, String, Configuration)}, on {@code env} with the model {@code model} opens. */
    public static LocalPipeline start(
            SharedService<EmbeddedKafka> kafka,
            String name,
            Configuration options,
            StreamExecutionEnvironment env,
            SessionFactory model)
            throws Exception {
        Configuration named = new Configuration(options);
        named.addAll(TestTopics.options(name));
        return LocalPipeline.onSharedBroker(kafka.get(), named, BundleChoice.NO_INSTALLATION, env, model);
    }
}
