package dev.bionerstream.cluster;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The Flink settings docker-compose.yml gives its JobManager and CPU TaskManager: the
 * {@code FLINK_PROPERTIES} lines (restart strategy, checkpoint directories, memory, parent-first
 * patterns), the TaskManager's slots and its JVM options. {@link ClusterITCase} starts its cluster
 * with them, so a change to docker-compose.yml is run, not only parsed.
 *
 * @param properties FLINK_PROPERTIES of the TaskManager, in file order
 * @param taskManagerSlots TASK_MANAGER_NUMBER_OF_TASK_SLOTS of the TaskManager
 * @param taskManagerJavaOpts FLINK_ENV_JAVA_OPTS_TM of the TaskManager ("" when unset)
 */
record ComposeFlinkSettings(Map<String, String> properties, int taskManagerSlots, String taskManagerJavaOpts) {
    /** Where the compose file's volumes put checkpoints and savepoints inside the containers. */
    static final String IMAGE_CHECKPOINTS = "file:///opt/flink/checkpoints";

    static ComposeFlinkSettings load(Path composeFile) {
        Map<String, Object> compose;
        try (Reader in = Files.newBufferedReader(composeFile)) {
            compose = new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
        } catch (IOException e) {
            throw new IllegalStateException(composeFile + ": " + e, e);
        }
        Map<String, Object> env =
                map(map(map(compose, "services", composeFile), "taskmanager", composeFile), "environment", composeFile);
        Map<String, String> props = parse(String.valueOf(env.get("FLINK_PROPERTIES")));
        if (props.isEmpty()) {
            throw new IllegalStateException(composeFile + ": the taskmanager service has no FLINK_PROPERTIES");
        }
        Object slots = env.get("TASK_MANAGER_NUMBER_OF_TASK_SLOTS");
        Object opts = env.get("FLINK_ENV_JAVA_OPTS_TM");
        return new ComposeFlinkSettings(
                props,
                slots == null ? 1 : Integer.parseInt(String.valueOf(slots)),
                opts == null ? "" : String.valueOf(opts));
    }

    /** {@code key: value} lines, as Flink's docker entry point appends them to its configuration. */
    static Map<String, String> parse(String flinkProperties) {
        Map<String, String> props = new LinkedHashMap<>();
        for (String line : flinkProperties.split("\n")) {
            String l = line.strip();
            int colon = l.indexOf(": ");
            if (l.isEmpty() || l.startsWith("#") || colon < 0) {
                continue;
            }
            props.put(l.substring(0, colon).strip(), l.substring(colon + 2).strip());
        }
        return props;
    }

    /**
     * The properties a cluster of local processes can take: the image's checkpoint directory moved
     * under {@code checkpoints}, and without the metric reporters (one Prometheus port per container
     * there, three processes on one host here; the reporter is a plugin of the image).
     */
    Map<String, String> forLocalProcesses(Path checkpoints) {
        Map<String, String> local = new LinkedHashMap<>();
        properties.forEach((k, v) -> {
            if (!k.startsWith("metrics.reporter.")) {
                local.put(
                        k,
                        v.replace(
                                IMAGE_CHECKPOINTS,
                                checkpoints.toUri().toString().replaceAll("/$", "")));
            }
        });
        return local;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Map<String, Object> node, String key, Path file) {
        Object child = node.get(key);
        if (!(child instanceof Map)) {
            throw new IllegalStateException(file + ": no map at " + key);
        }
        return (Map<String, Object>) child;
    }
}
