package dev.bionerstream.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.demo.EmbeddedKafka;
import dev.bionerstream.demo.TestTopics;
import dev.bionerstream.demo.TopicReader;
import dev.bionerstream.sink.opensearch.OpenSearchNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The cluster jar where its users deploy it, as one fixture for {@link ClusterITCase}'s scenarios: a
 * Flink standalone session cluster of separate JVMs (a JobManager and two TaskManagers) on the
 * classpath the image's {@code lib/} holds (Flink's jars and {@code flink-lib/}'s list), with
 * docker-compose.yml's Flink settings, on the KRaft broker and the OpenSearch node the integration
 * tests share (both outside the Flink JVMs, as in production), and the shaded job jar uploaded once
 * over the REST API, as the dashboard and {@code flink run} do. A
 * scenario works on topics, a consumer group and an index named after it, so scenarios share the
 * cluster without sharing state; one that kills a TaskManager starts its replacement.
 *
 * <p>{@code -Dbioner.cluster.jar=JAR} and {@code -Dbioner.cluster.classpath=FILE} run another jar or
 * lib/ (how the failure before a fix is shown).
 */
final class SessionCluster implements AutoCloseable {
    /** A wait fails only after this long without progress. */
    static final Duration STALL = Duration.ofMinutes(5);

    static final String ENTRY_CLASS = "dev.bionerstream.job.BionerJob";
    /** The TaskManager no scenario kills: where footprints are compared over submissions. */
    static final String STAYING = "tm-a";

    /** Logs, configuration and jcmd reports of the processes; kept after the test for a look. */
    final Path dir;

    final EmbeddedKafka kafka;
    /**
     * The index the jobs write to: a library that registers a class of the job with the TaskManager's
     * own (commons-logging's Log4j adapter did) keeps every ended job's class loader, and with it the
     * linker's vocabularies (230 MB of heap per job: a TaskManager ran out of heap after 13 jobs in the
     * 60-minute soak).
     */
    final OpenSearchNode index;

    final FlinkProcesses flink;
    final FlinkRest rest;
    private String jarId;
    /** The jobs submitted and not yet seen ended: a scenario that fails leaves none to take the next one's slots. */
    private final List<String> submitted = new ArrayList<>();

    private int taskManagersStarted;

    private SessionCluster(Path dir, EmbeddedKafka kafka, OpenSearchNode index, FlinkProcesses flink, FlinkRest rest) {
        this.dir = dir;
        this.kafka = kafka;
        this.index = index;
        this.flink = flink;
        this.rest = rest;
    }

    /**
     * Starts the JobManager and two TaskManagers, working with {@code kafka} and {@code index}, and
     * uploads the job jar.
     */
    static SessionCluster start(Path dir, EmbeddedKafka kafka, OpenSearchNode index) throws Exception {
        Path root = repositoryRoot();
        deleteRecursively(dir);
        Files.createDirectories(dir);
        ComposeFlinkSettings compose = ComposeFlinkSettings.load(root.resolve("docker-compose.yml"));
        Map<String, String> conf = settings(compose, dir);
        FlinkProcesses flink = FlinkProcesses.startJobManager(
                dir, clusterClasspath(root), conf, jobManagerSettings(conf), taskManagerJvmOptions(compose));
        try {
            SessionCluster cluster = new SessionCluster(dir, kafka, index, flink, new FlinkRest(flink.restUrl()));
            cluster.startTaskManager();
            cluster.startTaskManager();
            cluster.await(
                    "cluster start: 2 TaskManagers registered",
                    () -> cluster.taskManagers().size() >= 2,
                    "jobmanager",
                    STAYING);
            cluster.jarId = cluster.rest.upload(jobJar());
            return cluster;
        } catch (Exception | Error e) {
            flink.close();
            throw e;
        }
    }

    /** Starts one more TaskManager, named {@code tm-a}, {@code tm-b}, ... in start order; returns its name. */
    String startTaskManager() throws IOException {
        String name = "tm-" + (char) ('a' + taskManagersStarted++);
        flink.startTaskManager(name);
        return name;
    }

    /** The job's topics named after {@code name}, two partitions each (one per subtask). */
    void createTopics(String name) throws Exception {
        kafka.createTopics(2, name + "-abstracts", name + "-documents", name + "-entities", name + "-dlq");
    }

    /** The job's arguments for topics, group and transactions named after {@code name}. */
    List<String> jobArgs(String name) {
        return jobArgs(name, kafka.bootstrapServers());
    }

    /** {@link #jobArgs(String)}, indexing into index {@code name} too. */
    List<String> indexedJobArgs(String name) {
        List<String> args = new ArrayList<>(jobArgs(name));
        args.addAll(List.of("--opensearch.hosts", index.url, "--opensearch.index", name));
        return args;
    }

    /**
     * Runs this build's jar with {@code args}, from {@code savepoint} if given, and checks that building
     * the job logged no type-extraction failure on the JobManager (the Kafka sinks' lineage once
     * extracted the type of Avro's generic value schema and logged why it could not).
     */
    String submit(List<String> args, Optional<String> savepoint) throws Exception {
        int logged = flink.log("jobmanager").length();
        // no entry class, as the dashboard's submit leaves it: the jar's manifest names the job (program-class)
        String job = run(jarId, null, args, savepoint);
        assertThat(flink.log("jobmanager").substring(logged).lines())
                .as("what the JobManager logged while it built job %s", job)
                .noneMatch(l -> l.contains("InvalidTypesException"));
        return job;
    }

    /** Runs the uploaded jar {@code jar} with {@code args}, {@code entryClass} if given. */
    String run(String jar, String entryClass, List<String> args, Optional<String> savepoint) throws Exception {
        String job = rest.run(jar, entryClass, args, 2, savepoint);
        submitted.add(job);
        return job;
    }

    void cancel(String scenario, String job) throws Exception {
        rest.cancel(job);
        await(scenario + ": the job is cancelled", () -> rest.jobState(job).equals("CANCELED"), "jobmanager");
    }

    /** Cancels the jobs a scenario left running (it failed), so that the next one finds the slots free. */
    void cancelWhatIsLeft() throws Exception {
        for (String job : submitted) {
            if (!List.of("FINISHED", "CANCELED", "FAILED").contains(rest.jobState(job))) {
                cancel("after the scenario", job);
            }
        }
        submitted.clear();
    }

    TopicReader<DocumentEntities> reader(String name) {
        return new TopicReader<>(kafka.bootstrapServers(), name + "-documents", DocumentEntities.class);
    }

    /** Documents searchable in index {@code name}, 0 before it exists. */
    long indexed(String name) throws IOException {
        return index.client.indices().exists(e -> e.index(name)).value() ? index.count(name) : 0;
    }

    /** TaskManagers registered now: id -> free slots; none while the REST endpoint is not up. */
    Map<String, Integer> taskManagers() {
        try {
            return rest.taskManagers();
        } catch (IOException e) {
            return Map.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Map.of();
        }
    }

    interface Check {
        boolean holds() throws Exception;
    }

    /** Waits up to {@link #STALL} for {@code check}; the failure names {@code what} and shows the logs. */
    void await(String what, Check check, String... processes) throws Exception {
        long deadline = System.nanoTime() + STALL.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (check.holds()) {
                    return;
                }
            } catch (IOException e) {
                // not answering yet
            }
            Thread.sleep(250);
        }
        StringBuilder logs = new StringBuilder();
        for (String p : processes) {
            logs.append(flink.tail(p, 30));
        }
        throw new AssertionError("waited " + STALL + " for " + what + "; logs:\n" + logs);
    }

    /** Stops the Flink processes; the broker and the index are the run's, closed after it. */
    @Override
    public void close() throws Exception {
        flink.close();
    }

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
