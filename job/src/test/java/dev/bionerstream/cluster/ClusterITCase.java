package dev.bionerstream.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.demo.Delivery;
import dev.bionerstream.demo.EmbeddedKafka;
import dev.bionerstream.demo.SampleAbstracts;
import dev.bionerstream.demo.TopicReader;
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
import org.junit.jupiter.api.Test;

/**
 * The cluster jar where its users deploy it: a Flink standalone session cluster of separate JVMs (a
 * JobManager and two TaskManagers) on the classpath the image's {@code lib/} holds (Flink's jars and
 * {@code flink-lib/}'s list), with docker-compose.yml's Flink settings, a real KRaft broker, and the
 * shaded job jar uploaded and run over the REST API, as the dashboard and {@code flink run} do. One
 * cluster, in order: run; cancel and resubmit three times on the same TaskManagers (one copy of each
 * native library, one user class loader); kill -9 of a TaskManager mid-stream and a restart after the
 * surviving TaskManager released the job's slots (a new user class loader in a JVM that already
 * loaded the native code); stop-with-savepoint and a new job from the savepoint. Parallelism 2 across
 * both TaskManagers throughout; read_committed consumers see every document exactly once.
 *
 * <p>{@code -Dbioner.cluster.jar=JAR} and {@code -Dbioner.cluster.classpath=FILE} run another jar or
 * lib/ (how the failure before the fix was shown).
 */
class ClusterITCase {
    /** A wait fails only after this long without progress: a busy machine is slow, not wrong. */
    static final Duration STALL = Duration.ofMinutes(5);

    static final String ENTRY_CLASS = "dev.bionerstream.job.BionerJob";
    /** Scenario of the kill and of the savepoint: half of it before, half after. */
    static final int LONG = 24;
    /** Cancel + resubmit this many times: the RSS after the last is compared with after the first. */
    static final int RESUBMISSIONS = 5;
    /** Each resubmission's input: enough to prove the model runs. */
    static final int SHORT = 4;

    /** Logs, configuration and jcmd reports of the processes; kept after the test for a look. */
    private final Path dir = Path.of("target", "cluster-itcase").toAbsolutePath();

    private FlinkProcesses flink;
    private FlinkRest rest;
    private EmbeddedKafka kafka;
    private String jarId;
    private final Map<String, NativeFootprint> footprints = new LinkedHashMap<>();

    @Test
    void theClusterJarSurvivesResubmissionsRestartsKillsAndSavepoints() throws Exception {
        Path root = repositoryRoot();
        deleteRecursively(dir);
        Files.createDirectories(dir);
        ComposeFlinkSettings compose = ComposeFlinkSettings.load(root.resolve("docker-compose.yml"));
        Map<String, String> conf = settings(compose, dir);

        try (EmbeddedKafka broker = EmbeddedKafka.start();
                FlinkProcesses cluster = FlinkProcesses.startJobManager(
                        dir, clusterClasspath(root), conf, taskManagerJvmOptions(compose))) {
            kafka = broker;
            flink = cluster;
            rest = new FlinkRest(cluster.restUrl());
            flink.startTaskManager("tm-a");
            flink.startTaskManager("tm-b");
            await(
                    "cluster start: 2 TaskManagers registered",
                    () -> taskManagers().size() >= 2,
                    "jobmanager",
                    "tm-a");
            jarId = rest.upload(jobJar());

            runThenCancel("run", 1);
            for (int i = 1; i <= RESUBMISSIONS; i++) {
                runThenCancel("cancel + resubmit #" + i, 1 + i);
                NativeFootprint tm = footprints.get("submission " + (1 + i) + " tm-a");
                assertThat(tm.onnxRuntimeCopies())
                        .as("cancel + resubmit #%d: copies of libonnxruntime.so in tm-a (%s)", i, footprints)
                        .isEqualTo(1);
                assertThat(tm.tokenizersCopies())
                        .as("cancel + resubmit #%d: copies of libtokenizers.so in tm-a (%s)", i, footprints)
                        .isEqualTo(1);
                assertThat(tm.userClassLoaders())
                        .as("cancel + resubmit #%d: user class loaders alive in tm-a after GC (%s)", i, footprints)
                        .isLessThanOrEqualTo(1);
            }
            long first = footprints.get("submission 2 tm-a").rssKb();
            long last = footprints
                    .get("submission " + (1 + RESUBMISSIONS) + " tm-a")
                    .rssKb();
            System.out.printf(
                    "tm-a RSS after 1 resubmission %d MB, after %d %d MB (%+.1f%%)%n",
                    first / 1024, RESUBMISSIONS, last / 1024, 100.0 * (last - first) / first);
            assertThat((double) last)
                    .as("cancel + resubmit: tm-a RSS after %d resubmissions vs after 1 (%s)", RESUBMISSIONS, footprints)
                    .isLessThanOrEqualTo(first * 1.10);

            killATaskManagerMidStreamAndRestartAfterSlotsReleased();
            stopWithSavepointAndResume();
        }
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

    /** Submits the job on a fresh topic set, checks its output and placement, and cancels it. */
    private void runThenCancel(String scenario, int submission) throws Exception {
        String name = "s" + submission;
        List<String> sample = SampleAbstracts.load(SHORT);
        createTopics(name);
        kafka.produce(name + "-abstracts", sample);
        String job = rest.run(jarId, ENTRY_CLASS, jobArgs(name), 2, Optional.empty());
        try (TopicReader<DocumentEntities> docs =
                new TopicReader<>(kafka.bootstrapServers(), name + "-documents", DocumentEntities.class)) {
            awaitDocuments(scenario, job, docs, sample.size(), true);
            // the REST API serves a cached view of the job, which can lag its tasks by a few seconds
            await(
                    scenario + ": parallelism 2 across the two TaskManagers (subtasks' TaskManagers)",
                    () -> new java.util.TreeSet<>(rest.subtaskTaskManagers(job)).size() == 2,
                    "jobmanager");
            Thread.sleep(3000); // a duplicate would be committed with one of the next checkpoints
            Delivery delivery = Delivery.of(sample, docs.poll(Duration.ofSeconds(1)));
            assertThat(delivery.missing()).as("%s: missing documents", scenario).isEmpty();
            assertThat(delivery.duplicated())
                    .as("%s: duplicated documents", scenario)
                    .isEmpty();
            for (String tm : List.of("tm-a", "tm-b")) {
                measure("submission " + submission + " " + tm, tm);
            }
            System.out.printf(
                    "%s: %d of %d documents, 0 missing, 0 duplicated; tm-a %s%n",
                    scenario, delivery.received(), sample.size(), footprints.get("submission " + submission + " tm-a"));
        }
        cancel(scenario, job);
    }

    private void killATaskManagerMidStreamAndRestartAfterSlotsReleased() throws Exception {
        String scenario = "kill -9 of one TaskManager mid-stream";
        String name = "kill";
        List<String> sample = SampleAbstracts.load(LONG);
        String job = runOnFirstHalf(name, sample);
        try (TopicReader<DocumentEntities> docs =
                new TopicReader<>(kafka.bootstrapServers(), name + "-documents", DocumentEntities.class)) {
            awaitDocuments(scenario, job, docs, 2, true);
            measure("kill scenario tm-a", "tm-a");
            int seenAtKill = docs.poll(Duration.ofMillis(100)).size();
            flink.kill("tm-b");
            String restart = "restart after slots released";
            await(
                    restart + ": tm-a frees the job's slot while tm-b is gone",
                    () -> flink.log("tm-a").contains("Close JobManager connection for job " + job),
                    "tm-a",
                    "jobmanager");
            kafka.produce(name + "-abstracts", sample.subList(LONG / 2, LONG));
            flink.startTaskManager("tm-c");
            awaitDocuments(scenario + ", then " + restart, job, docs, sample.size(), false);
            Delivery delivery = assertExactlyOnce(scenario, "the kill", seenAtKill, sample, docs);
            assertThat(new java.util.TreeSet<>(rest.subtaskTaskManagers(job)))
                    .as("%s: parallelism 2 across tm-a and the new tm-c", restart)
                    .containsExactly("tm-a", "tm-c");
            System.out.printf(
                    "%s and %s: %d documents seen at the kill, %d after, 0 missing, 0 duplicated%n",
                    scenario, restart, seenAtKill, delivery.received());
        }
        cancel(scenario, job);
    }

    private void stopWithSavepointAndResume() throws Exception {
        String scenario = "stop-with-savepoint -> submit from savepoint";
        String name = "savepoint";
        List<String> sample = SampleAbstracts.load(LONG);
        String job = runOnFirstHalf(name, sample);
        try (TopicReader<DocumentEntities> docs =
                new TopicReader<>(kafka.bootstrapServers(), name + "-documents", DocumentEntities.class)) {
            awaitDocuments(scenario, job, docs, 2, true);
            measure("savepoint scenario tm-a", "tm-a");
            String trigger = rest.stopWithSavepoint(
                    job, dir.resolve("savepoints").toUri().toString());
            String[] location = new String[1];
            await(
                    scenario + ": the savepoint completes",
                    () -> {
                        location[0] = rest.savepointLocation(job, trigger).orElse(null);
                        return location[0] != null;
                    },
                    "jobmanager");
            int seenAtStop = docs.poll(Duration.ofMillis(100)).size();
            kafka.produce(name + "-abstracts", sample.subList(LONG / 2, LONG));
            String resumed = rest.run(jarId, ENTRY_CLASS, jobArgs(name), 2, Optional.of(location[0]));
            awaitDocuments(scenario, resumed, docs, sample.size(), true);
            Delivery delivery = assertExactlyOnce(scenario, "the stop", seenAtStop, sample, docs);
            measure("resumed from savepoint tm-a", "tm-a");
            System.out.printf(
                    "%s: %d documents seen at the stop, %d after, 0 missing, 0 duplicated; tm-a %s%n",
                    scenario, seenAtStop, delivery.received(), footprints.get("resumed from savepoint tm-a"));
            cancel(scenario, resumed);
        }
    }

    /**
     * docker-compose's TaskManager JVM options, and the heap touched at start: Flink sizes the heap
     * with -Xms = -Xmx (1.9 GB here), and G1 touches more of it job after job until all of it is
     * resident, which says nothing about leaks. With it resident from the start, the RSS compared
     * after 1 and after 5 resubmissions is what could leak: native libraries and their memory, class
     * metadata, threads.
     */
    static List<String> taskManagerJvmOptions(ComposeFlinkSettings compose) {
        List<String> opts =
                new ArrayList<>(List.of(compose.taskManagerJavaOpts().split("\\s+")));
        opts.add("-XX:+AlwaysPreTouch");
        return opts;
    }

    /** Fresh topics named after {@code name} with the first half of {@code sample}, and the job on them. */
    private String runOnFirstHalf(String name, List<String> sample) throws Exception {
        createTopics(name);
        kafka.produce(name + "-abstracts", sample.subList(0, sample.size() / 2));
        return rest.run(jarId, ENTRY_CLASS, jobArgs(name), 2, Optional.empty());
    }

    /** Every document of {@code sample} exactly once under read_committed, some seconds after the last one. */
    private static Delivery assertExactlyOnce(
            String scenario, String moment, int seen, List<String> sample, TopicReader<DocumentEntities> docs)
            throws InterruptedException {
        Thread.sleep(6000); // a duplicate would be committed with one of the next checkpoints
        Delivery delivery = Delivery.of(sample, docs.poll(Duration.ofSeconds(1)));
        assertThat(delivery.missing())
                .as("%s: missing documents (%d seen at %s)", scenario, seen, moment)
                .isEmpty();
        assertThat(delivery.duplicated())
                .as("%s: documents seen twice under read_committed", scenario)
                .isEmpty();
        return delivery;
    }

    /**
     * Polls the documents topic until {@code n} distinct documents arrived, failing after {@link
     * #STALL} without a new one, or at once when the job fails with a class-loading or native-library
     * error (or, when {@code clean}, with any error).
     */
    private void awaitDocuments(String scenario, String job, TopicReader<DocumentEntities> docs, int n, boolean clean)
            throws Exception {
        long lastProgress = System.nanoTime();
        int size = 0;
        while (true) {
            List<DocumentEntities> read = docs.poll(Duration.ofSeconds(1));
            if (Delivery.distinct(read) >= n) {
                return;
            }
            if (read.size() > size) {
                size = read.size();
                lastProgress = System.nanoTime();
            }
            List<String> errors = rest.exceptions(job);
            boolean fatal = errors.stream()
                    .anyMatch(e -> e.contains("UnsatisfiedLinkError")
                            || e.contains("NoClassDefFoundError")
                            || e.contains("ClassNotFoundException"));
            if (fatal || (clean && !errors.isEmpty()) || System.nanoTime() - lastProgress > STALL.toNanos()) {
                throw new AssertionError(String.format(
                        "%s: %d of %d documents on the output topic (job %s %s); job exceptions, newest first:%n%s%n%s",
                        scenario,
                        Delivery.distinct(read),
                        n,
                        job,
                        rest.jobState(job),
                        String.join("\n", errors.subList(0, Math.min(5, errors.size()))),
                        logs()));
            }
        }
    }

    /** The process's footprint, kept under {@code key}, with its jcmd reports in {@link #dir}. */
    private NativeFootprint measure(String key, String process) throws Exception {
        NativeFootprint f = NativeFootprint.of(flink.process(process).pid(), dir.resolve(key.replace(' ', '-')));
        footprints.put(key, f);
        return f;
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

    private void cancel(String scenario, String job) throws Exception {
        rest.cancel(job);
        await(scenario + ": the job is cancelled", () -> rest.jobState(job).equals("CANCELED"), "jobmanager");
    }

    private List<String> jobArgs(String name) {
        return jobArgs(name, kafka.bootstrapServers());
    }

    /** The job's arguments for topics, group and transactions named after {@code name}. */
    static List<String> jobArgs(String name, String bootstrapServers) {
        List<String> args = new ArrayList<>(List.of(
                "--kafka.bootstrap-servers",
                bootstrapServers,
                "--kafka.input-topic",
                name + "-abstracts",
                "--kafka.documents-topic",
                name + "-documents",
                "--kafka.entities-topic",
                name + "-entities",
                "--kafka.dead-letter-topic",
                name + "-dlq",
                "--kafka.group-id",
                name,
                "--kafka.transactional-id-prefix",
                name,
                "--kafka.starting-offsets",
                "earliest",
                "--kafka.delivery-guarantee",
                "exactly-once",
                "--kafka.transaction-timeout",
                "1 min",
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

    private void createTopics(String name) throws Exception {
        kafka.createTopics(2, name + "-abstracts", name + "-documents", name + "-entities", name + "-dlq");
    }

    private Map<String, Integer> taskManagers() {
        try {
            return rest.taskManagers();
        } catch (IOException e) {
            return Map.of(); // the REST endpoint is not up yet
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Map.of();
        }
    }

    interface Check {
        boolean holds() throws Exception;
    }

    /** Waits up to {@link #STALL} for {@code check}; the failure names {@code what} and shows the logs. */
    private void await(String what, Check check, String... processes) throws Exception {
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

    private String logs() {
        StringBuilder logs = new StringBuilder();
        for (String p : List.of("jobmanager", "tm-a", "tm-b")) {
            logs.append(flink.tail(p, 15));
        }
        return logs.toString();
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
}
