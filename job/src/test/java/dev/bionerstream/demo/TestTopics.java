package dev.bionerstream.demo;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;

/**
 * The job's Kafka names (topics, consumer group, transactional ids) after a test's name, so that tests
 * share one broker ({@link SharedService#kafka()}) without reading each other's records or fencing
 * each other's transactions.
 */
public final class TestTopics {
    private TestTopics() {}

    /** The options that name them: {@code NAME-abstracts}, {@code NAME-documents}, ..., group {@code NAME}. */
    public static Map<String, String> of(String name) {
        Map<String, String> names = new LinkedHashMap<>();
        names.put("kafka.input-topic", name + "-abstracts");
        names.put("kafka.documents-topic", name + "-documents");
        names.put("kafka.entities-topic", name + "-entities");
        names.put("kafka.dead-letter-topic", name + "-dlq");
        names.put("kafka.group-id", name);
        names.put("kafka.transactional-id-prefix", name);
        return names;
    }

    /** The names of {@link #of} as options, to add to a job's. */
    public static Configuration options(String name) {
        return Configuration.fromMap(of(name));
    }

    /** The names as command-line arguments ({@code --kafka.input-topic NAME-abstracts ...}). */
    public static List<String> args(String name) {
        List<String> args = new ArrayList<>();
        of(name).forEach((key, value) -> {
            args.add("--" + key);
            args.add(value);
        });
        return args;
    }
}
