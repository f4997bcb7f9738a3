package dev.bionerstream.cluster;

import dev.bionerstream.demo.TestTopics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What the cluster tests build their Flink processes and jobs from: docker-compose.yml's Flink
 * settings and what a test of restarts on one host changes in them, the JobManager's and
 * TaskManagers' own settings, the job's arguments, and the build's outputs (the shaded job jar, the
 * classpath of Flink's lib/). {@link SessionCluster}, {@link ClusterSoak} and the secured-cluster tests
 * share them.
 */
final class ClusterSetup {
    private ClusterSetup() {}

    /** docker-compose.yml's Flink settings, and what a test of restarts on one host changes in them. */
    static Map<String, String> settings(ComposeFlinkSettings compose, Path dir) {
        Map<String, String> conf = new LinkedHashMap<>(compose.forLocalProcesses(dir.resolve("checkpoints")));
        // One slot per TaskManager (compose gives 2), so that parallelism 2 spans both TaskManagers and a
        // killed one cannot be replaced by the other's spare slot.
        conf.put("taskmanager.numberOfTaskSlots", "1");
        // A pause in a restart longer than this releases the job's slots, and the TaskManager its class
        // loader (50 s by default; compose's exponential delay reaches 1 min).
        conf.put("slot.idle.timeout", "2 s");
        conf.put("slot.request.timeout", "10 s");
        conf.put("heartbeat.interval", "1 s");
        conf.put("heartbeat.timeout", "8 s");
        // The job's subtasks share no data exchange, so each is a region of its own: a killed TaskManager
        // would restart only its own subtask. Full failover restarts the survivor's too, as a broker outage does.
        conf.put("jobmanager.execution.failover-strategy", "full");
        return conf;
    }

    /**
     * What a session cluster's JobManager sets beside {@code conf}: Avro and its Jackson parent-first,
     * from lib/ (flink-lib/pom.xml says why), as docs/deployment-flink-cluster.md tells users to.
     */
    static Map<String, String> jobManagerSettings(Map<String, String> conf) {
        String key = "classloader.parent-first-patterns.additional";
        return Map.of(key, conf.get(key) + ";org.apache.avro.;com.fasterxml.jackson.");
    }

    /**
     * docker-compose's TaskManager JVM options, and the heap touched at start: Flink sizes the heap
     * with -Xms = -Xmx (1.9 GB here), and G1 touches more of it job after job until all of it is
     * resident, which says nothing about leaks. With it resident from the start, the RSS compared
     * after the first and the last resubmission is what could leak: native libraries and their memory, class
     * metadata, threads.
     */
    static List<String> taskManagerJvmOptions(ComposeFlinkSettings compose) {
        List<String> opts =
                new ArrayList<>(List.of(compose.taskManagerJavaOpts().split("\\s+")));
        opts.add("-XX:+AlwaysPreTouch");
        return opts;
    }

    /** The job's arguments for topics, group and transactions named after {@code name}. */
    static List<String> jobArgs(String name, String bootstrapServers) {
        List<String> args = new ArrayList<>(List.of("--kafka.bootstrap-servers", bootstrapServers));
        args.addAll(TestTopics.args(name));
        args.addAll(List.of(
                "--kafka.starting-offsets",
                "earliest",
                "--kafka.delivery-guarantee",
                "exactly-once",
                "--kafka.transaction-timeout",
                // The job's default. A transaction the broker aborts before the checkpoint that commits it
                // completes is lost: a shorter timeout loses output whenever a busy machine holds a
                // TaskManager still for that long (ClusterSoak's -Dsoak.freeze-seconds shows it).
                System.getProperty("bioner.cluster.transaction-timeout", "5 min"),
                "--job.checkpoint-interval",
                "2 s",
                "--job.parallelism",
                "2",
                "--model.threads",
                "1"));
        // The int8 bundle the CPU image runs (docker-compose's --model.bundle), from the repository.
        Path int8 = repositoryRoot().resolve("bundles").resolve("default-int8");
        if (Files.isRegularFile(int8.resolve("bundle.json"))) {
            args.addAll(List.of("--model.bundle", int8.toString()));
        }
        return args;
    }

    static Path jobJar() throws IOException {
        String given = System.getProperty("bioner.cluster.jar");
        if (given != null) {
            return Path.of(given);
        }
        try (Stream<Path> files = Files.list(Path.of("target"))) {
            return files.filter(f -> f.getFileName().toString().matches("bioner-stream-job-[^/]*\\.jar")
                            && !f.getFileName().toString().endsWith("-sources.jar"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no shaded job jar in target/: run mvn package first"));
        }
    }

    /** Flink's lib/ and ours, as resolved by flink-lib's build (its target/flink-lib-classpath.txt). */
    static String clusterClasspath(Path root) throws IOException {
        Path file = Path.of(System.getProperty(
                "bioner.cluster.classpath",
                root.resolve("flink-lib/target/flink-lib-classpath.txt").toString()));
        if (!Files.isRegularFile(file)) {
            throw new AssertionError(file + " is missing: build the flink-lib module first (mvn package)");
        }
        return Files.readString(file).strip();
    }

    static Path repositoryRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.exists(p.resolve("docker-compose.yml")) && Files.isDirectory(p.resolve("flink-lib"))) {
                return p;
            }
        }
        throw new IllegalStateException("docker-compose.yml and flink-lib/ not found above "
                + Path.of("").toAbsolutePath());
    }

    static void deleteRecursively(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> all = Files.walk(path)) {
            for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
