package dev.bionerstream.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.demo.EmbeddedKafka;
import dev.bionerstream.demo.Heartbeat;
import dev.bionerstream.demo.TopicReader;
import dev.bionerstream.sink.opensearch.OpenSearchNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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
        Path root = ClusterSetup.repositoryRoot();
        ClusterSetup.deleteRecursively(dir);
        Files.createDirectories(dir);
        ComposeFlinkSettings compose = ComposeFlinkSettings.load(root.resolve("docker-compose.yml"));
        Map<String, String> conf = ClusterSetup.settings(compose, dir);
        FlinkProcesses flink = FlinkProcesses.startJobManager(
                dir,
                ClusterSetup.clusterClasspath(root),
                conf,
                ClusterSetup.jobManagerSettings(conf),
                ClusterSetup.taskManagerJvmOptions(compose));
        try {
            SessionCluster cluster = new SessionCluster(dir, kafka, index, flink, new FlinkRest(flink.restUrl()));
            cluster.startTaskManager();
            cluster.startTaskManager();
            cluster.await(
                    "cluster start: 2 TaskManagers registered",
                    () -> cluster.taskManagers().size() >= 2,
                    "jobmanager",
                    STAYING);
            cluster.jarId = cluster.rest.upload(ClusterSetup.jobJar());
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
        return ClusterSetup.jobArgs(name, kafka.bootstrapServers());
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
        try (Heartbeat heartbeat = Heartbeat.start(what)) {
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
}
