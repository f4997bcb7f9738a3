package dev.bionerstream.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bionerstream.avro.DeadLetter;
import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.demo.Delivery;
import dev.bionerstream.demo.EmbeddedKafka;
import dev.bionerstream.demo.SampleAbstracts;
import dev.bionerstream.demo.TopicReader;
import dev.bionerstream.kafka.OutputFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer.OrderAnnotation;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The cluster jar where its users deploy it: a Flink standalone session cluster of separate JVMs (a
 * JobManager and two TaskManagers) on the classpath the image's {@code lib/} holds (Flink's jars and
 * {@code flink-lib/}'s list), with docker-compose.yml's Flink settings, a real KRaft broker, and the
 * shaded job jar uploaded and run over the REST API, as the dashboard and {@code flink run} do. One
 * cluster for all scenarios, one scenario per test, in order: run; cancel and resubmit on the same
 * TaskManagers, indexing into an OpenSearch node of its own JVM as production does (one copy of each
 * native library, one user class loader, and a JobManager whose Metaspace and class loaders do not
 * grow with submissions); kill -9 of a TaskManager mid-stream and
 * a restart after the surviving TaskManager released the job's slots; no type-extraction failure in
 * the JobManager's log; the release before linking (built from this repository's history) stopped
 * with a savepoint and this release started from it. Parallelism 2 across both TaskManagers throughout; read_committed
 * consumers see every document exactly once.
 *
 * <p>{@code -Dbioner.cluster.jar=JAR} and {@code -Dbioner.cluster.classpath=FILE} run another jar or
 * lib/ (how the failure before a fix is shown).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(OrderAnnotation.class)
class ClusterITCase {
    /** A wait fails only after this long without progress while the job still has input to read. */
    static final Duration STALL = Duration.ofMinutes(5);
    /**
     * Checkpoints completed after the job read and checkpointed all its input and had no document in
     * flight in the model, with no new output: its transactions commit with the next checkpoint, so
     * more never comes.
     */
    static final int IDLE_CHECKPOINTS = 3;
    /** Longer than the REST API's metric fetch interval (10 s): an idle reading stays idle this long. */
    static final Duration IDLE_METRICS = Duration.ofSeconds(25);

    static final String ENTRY_CLASS = "dev.bionerstream.job.BionerJob";
    /** Scenario of the kill and of the savepoint: half of it before, half after. */
    static final int LONG = 24;
    /**
     * Cancel + resubmit this many times: the footprints after the last are compared with after the first
     * (3, not 5, keeps CI within its limit; a job's class loader left behind shows after the first).
     */
    static final int RESUBMISSIONS = 3;
    /** Each resubmission's input: enough to prove the model runs. */
    static final int SHORT = 4;
    /**
     * Growth of the JobManager's used Metaspace allowed from 1 to {@link #RESUBMISSIONS}+1 submissions:
     * a job's class loader left reachable holds 15-20 MB of classes.
     */
    static final long JOBMANAGER_METASPACE_GROWTH_KB = 10 * 1024;

    /** Logs, configuration and jcmd reports of the processes; kept after the test for a look. */
    private final Path dir = Path.of("target", "cluster-itcase").toAbsolutePath();

    private EmbeddedKafka kafka;
    /**
     * The index of the run and resubmission scenarios: a library that registers a class of the job with
     * the TaskManager's own (commons-logging's Log4j adapter did) keeps every ended job's class loader,
     * and with it the linker's vocabularies (230 MB of heap per job: a TaskManager ran out of heap
     * after 13 jobs in the 60-minute soak).
     */
    private OpenSearchProcess index;

    private FlinkProcesses flink;
    private FlinkRest rest;
    private String jarId;
    private final Map<String, NativeFootprint> footprints = new LinkedHashMap<>();
    /** The jobs a scenario submitted: one that fails leaves none running to take the next one's slots. */
    private final List<String> submitted = new ArrayList<>();

    @BeforeAll
    void startCluster() throws Exception {
        Path root = repositoryRoot();
        deleteRecursively(dir);
        Files.createDirectories(dir);
        ComposeFlinkSettings compose = ComposeFlinkSettings.load(root.resolve("docker-compose.yml"));
        kafka = EmbeddedKafka.start();
        index = OpenSearchProcess.plain(dir.resolve("opensearch")).start();
        Map<String, String> conf = settings(compose, dir);
        flink = FlinkProcesses.startJobManager(
                dir, clusterClasspath(root), conf, jobManagerSettings(conf), taskManagerJvmOptions(compose));
        rest = new FlinkRest(flink.restUrl());
        flink.startTaskManager("tm-a");
        flink.startTaskManager("tm-b");
        await("cluster start: 2 TaskManagers registered", () -> taskManagers().size() >= 2, "jobmanager", "tm-a");
        jarId = rest.upload(jobJar());
    }

    @AfterEach
    void cancelWhatIsLeft() throws Exception {
        for (String job : submitted) {
            String state = rest.jobState(job);
            if (!List.of("FINISHED", "CANCELED", "FAILED").contains(state)) {
                cancel("after the scenario", job);
            }
        }
        submitted.clear();
    }

    @AfterAll
    void stopCluster() throws Exception {
        try (EmbeddedKafka broker = kafka;
                OpenSearchProcess node = index;
                FlinkProcesses cluster = flink) {
            // closed in reverse order: the Flink processes, the index, then the broker
        }
    }

    @Test
    @Order(1)
    void runSpreadsTheJobOverBothTaskManagers() throws Exception {
        runThenCancel("run", 1);
    }

    @Test
    @Order(2)
    void cancelAndResubmitLoadsNativeCodeOnceAndLeavesNoClassLoaderBehind() throws Exception {
        for (int i = 1; i <= RESUBMISSIONS; i++) {
            String scenario = "cancel + resubmit #" + i;
            runThenCancel(scenario, 1 + i);
            NativeFootprint tm = footprint("submission " + (1 + i) + " tm-a");
            assertThat(tm.onnxRuntimeCopies())
                    .as("%s: copies of libonnxruntime.so in tm-a (%s)", scenario, footprints)
                    .isEqualTo(1);
            assertThat(tm.tokenizersCopies())
                    .as("%s: copies of libtokenizers.so in tm-a (%s)", scenario, footprints)
                    .isEqualTo(1);
            assertThat(tm.userClassLoaders())
                    .as("%s: user class loaders alive in tm-a after GC (%s)", scenario, footprints)
                    .isLessThanOrEqualTo(1);
        }
        String last = "submission " + (1 + RESUBMISSIONS);
        long first = footprint("submission 2 tm-a").rssKb();
        long rss = footprint(last + " tm-a").rssKb();
        System.out.printf(
                "tm-a RSS after 1 resubmission %d MB, after %d %d MB (%+.1f%%)%n",
                first / 1024, RESUBMISSIONS, rss / 1024, 100.0 * (rss - first) / first);
        assertThat((double) rss)
                .as("cancel + resubmit: tm-a RSS after %d resubmissions vs after 1 (%s)", RESUBMISSIONS, footprints)
                .isLessThanOrEqualTo(first * 1.10);

        NativeFootprint jmFirst = footprint("submission 1 jobmanager");
        NativeFootprint jmLast = footprint(last + " jobmanager");
        System.out.printf("JobManager after 1 submission: %s; after %d: %s%n", jmFirst, 1 + RESUBMISSIONS, jmLast);
        assertThat(jmLast.userClassLoaders())
                .as(
                        "JobManager: user class loaders alive after GC, after %d submissions vs after 1 (%s)",
                        1 + RESUBMISSIONS, footprints)
                .isLessThanOrEqualTo(jmFirst.userClassLoaders());
        assertThat(jmLast.metaspaceUsedKb())
                .as(
                        "JobManager: Metaspace used (kB) after %d submissions vs after 1 (%s)",
                        1 + RESUBMISSIONS, footprints)
                .isLessThanOrEqualTo(jmFirst.metaspaceUsedKb() + JOBMANAGER_METASPACE_GROWTH_KB);
    }

    @Test
    @Order(3)
    void killOfATaskManagerMidStreamThenRestartAfterSlotsReleasedLosesNothing() throws Exception {
        String scenario = "kill -9 of one TaskManager mid-stream";
        String name = "kill";
        List<String> sample = SampleAbstracts.load(LONG);
        String job = runOnFirstHalf(name, sample);
        try (TopicReader<DocumentEntities> docs = reader(name)) {
            awaitDocuments(scenario, job, name, docs, sample, 2, true);
            int seenAtKill = docs.poll(Duration.ofMillis(100)).size();
            String victim = "tm-b";
            flink.kill(victim);
            String restart = scenario + ", then restart after slots released";
            await(
                    restart + ": tm-a frees the job's slot while tm-b is gone",
                    () -> flink.log("tm-a").contains("Close JobManager connection for job " + job),
                    "tm-a",
                    "jobmanager");
            kafka.produce(name + "-abstracts", sample.subList(LONG / 2, LONG));
            flink.startTaskManager("tm-c");
            String moment = seenAtKill + " seen at the kill of " + victim;
            awaitDocuments(restart + " (" + moment + ")", job, name, docs, sample, sample.size(), false);
            Delivery delivery = assertExactlyOnce(restart, moment, job, name, sample, docs);
            assertThat(new TreeSet<>(rest.subtaskTaskManagers(job)))
                    .as("%s: parallelism 2 across tm-a and the new tm-c", restart)
                    .containsExactly("tm-a", "tm-c");
            System.out.printf("%s: %s, %d after, 0 missing, 0 duplicated%n", restart, moment, delivery.received());
        }
        cancel("kill scenario", job);
    }

    @Test
    @Order(4)
    void theJobManagerLogHasNoTypeExtractionFailures() {
        // the Kafka sinks' lineage once extracted the type of Avro's generic value schema and logged why it could not
        assertThat(flink.log("jobmanager").lines())
                .as("the JobManager's log after %d submissions of this jar", RESUBMISSIONS + 3)
                .noneMatch(l -> l.contains("InvalidTypesException"));
    }

    @Test
    @Order(5)
    void upgradeFromTheReleaseBeforeLinkingByStopWithSavepointLosesNothing() throws Exception {
        String scenario = "the release before linking, stop-with-savepoint -> this release from the savepoint";
        String name = "savepoint";
        List<String> sample = SampleAbstracts.load(LONG);
        String earlier = rest.upload(EarlierRelease.jar(repositoryRoot(), dir));
        // that release's manifest names only the command line: its entry class is given
        String job = runOnFirstHalf(name, sample, earlier, ENTRY_CLASS);
        try (TopicReader<DocumentEntities> docs = reader(name)) {
            awaitDocuments(scenario + ": before the stop", job, name, docs, sample, 2, true);
            String trigger = rest.stopWithSavepoint(
                    job, dir.resolve("savepoints").toUri().toString());
            List<FlinkRest.StopOutcome> stop = new ArrayList<>();
            await(
                    scenario + ": the savepoint completes and the job stops",
                    () -> rest.stopOutcome(job, trigger).map(stop::add).isPresent(),
                    "jobmanager");
            int seenAtStop = docs.poll(Duration.ofMillis(100)).size();
            assertThat(stop.get(0).failure())
                    .as("%s: the stop of %s failed (%d documents seen)%s", scenario, job, seenAtStop, jobLogs(job))
                    .isNull();
            String location = stop.get(0).location();
            kafka.produce(name + "-abstracts", sample.subList(LONG / 2, LONG));
            String resumed = submit(name, Optional.of(location));
            String moment = seenAtStop + " seen at the stop of " + job + " (savepoint " + location + ")";
            awaitDocuments(scenario + " (" + moment + ")", resumed, name, docs, sample, sample.size(), true);
            Delivery delivery = assertExactlyOnce(scenario, moment, resumed, name, sample, docs);
            List<DocumentEntities> read = docs.poll(Duration.ofMillis(100));
            assertThat(read.subList(0, seenAtStop))
                    .as("documents of the earlier release: no links")
                    .allSatisfy(d -> assertThat(d.getLinks()).isEmpty());
            assertThat(read.subList(seenAtStop, read.size()))
                    .as("documents of this release, from the savepoint: linked")
                    .anySatisfy(d -> assertThat(d.getLinks()).anyMatch(l -> l.getConceptId() != null));
            measure("resumed from savepoint tm-a", "tm-a");
            System.out.printf(
                    "%s: %s, %d after, 0 missing, 0 duplicated; tm-a %s%n",
                    scenario, moment, delivery.received(), footprints.get("resumed from savepoint tm-a"));
            cancel(scenario, resumed);
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

    /**
     * What a session cluster's JobManager sets beside {@code conf}: Avro and its Jackson parent-first,
     * from lib/ (flink-lib/pom.xml says why), as docs/deployment-flink-cluster.md tells users to.
     */
    static Map<String, String> jobManagerSettings(Map<String, String> conf) {
        String key = "classloader.parent-first-patterns.additional";
        return Map.of(key, conf.get(key) + ";org.apache.avro.;com.fasterxml.jackson.");
    }

    /**
     * Submits the job on a fresh topic set, checks its output and placement, measures both
     * TaskManagers, cancels it, and measures the JobManager.
     */
    private void runThenCancel(String scenario, int submission) throws Exception {
        String name = "s" + submission;
        List<String> sample = SampleAbstracts.load(SHORT);
        createTopics(name);
        kafka.produce(name + "-abstracts", sample);
        List<String> args = new ArrayList<>(jobArgs(name));
        args.addAll(index.jobArgs(name));
        String job = submit(args, Optional.empty());
        try (TopicReader<DocumentEntities> docs = reader(name)) {
            awaitDocuments(scenario, job, name, docs, sample, sample.size(), true);
            await(
                    scenario + ": the index holds the " + sample.size() + " documents",
                    () -> indexed(name) == sample.size(),
                    "tm-a",
                    "tm-b");
            // the REST API serves a cached view of the job, which can lag its tasks by a few seconds
            await(
                    scenario + ": parallelism 2 across the two TaskManagers (subtasks' TaskManagers)",
                    () -> new TreeSet<>(rest.subtaskTaskManagers(job)).size() == 2,
                    "jobmanager");
            Delivery delivery = assertExactlyOnce(scenario, "the end", job, name, sample, docs);
            for (String tm : List.of("tm-a", "tm-b")) {
                measure("submission " + submission + " " + tm, tm);
            }
            // What a job leaves on the JobManager shows once it is gone.
            cancel(scenario, job);
            measure("submission " + submission + " jobmanager", "jobmanager");
            System.out.printf(
                    "%s: %d of %d documents, 0 missing, 0 duplicated; tm-a %s; jobmanager %s%n",
                    scenario,
                    delivery.received(),
                    sample.size(),
                    footprints.get("submission " + submission + " tm-a"),
                    footprints.get("submission " + submission + " jobmanager"));
        }
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

    /** Fresh topics named after {@code name} with the first half of {@code sample}, and the job on them. */
    private String runOnFirstHalf(String name, List<String> sample) throws Exception {
        return runOnFirstHalf(name, sample, jarId, null);
    }

    /** Runs the uploaded jar {@code jar} on the first half of {@code sample}, {@code entryClass} if given. */
    private String runOnFirstHalf(String name, List<String> sample, String jar, String entryClass) throws Exception {
        createTopics(name);
        kafka.produce(name + "-abstracts", sample.subList(0, sample.size() / 2));
        String job = rest.run(jar, entryClass, jobArgs(name), 2, Optional.empty());
        submitted.add(job);
        return job;
    }

    /** Runs the uploaded jar on the topics named after {@code name}, from {@code savepoint} if given. */
    private String submit(String name, Optional<String> savepoint) throws Exception {
        return submit(jobArgs(name), savepoint);
    }

    /** Runs the uploaded jar with {@code args}, from {@code savepoint} if given. */
    private String submit(List<String> args, Optional<String> savepoint) throws Exception {
        // no entry class, as the dashboard's submit leaves it: the jar's manifest names the job (program-class)
        String job = rest.run(jarId, null, args, 2, savepoint);
        submitted.add(job);
        return job;
    }

    /** Documents searchable in index {@code name}, 0 before it exists. */
    private long indexed(String name) throws Exception {
        OpenSearchProcess.Answer count = index.request("GET", "/" + name + "/_count", null);
        return count.status() == 200
                ? new ObjectMapper().readTree(count.body()).path("count").asLong()
                : 0;
    }

    private TopicReader<DocumentEntities> reader(String name) {
        return new TopicReader<>(kafka.bootstrapServers(), name + "-documents", DocumentEntities.class);
    }

    /**
     * Every document of {@code sample} exactly once under read_committed, after {@link
     * #IDLE_CHECKPOINTS} more checkpoints of {@code job} (a duplicate would be committed with one).
     */
    private Delivery assertExactlyOnce(
            String scenario,
            String moment,
            String job,
            String name,
            List<String> sample,
            TopicReader<DocumentEntities> docs)
            throws Exception {
        long checkpoints = rest.completedCheckpoints(job);
        await(
                scenario + ": " + IDLE_CHECKPOINTS + " more checkpoints of " + job,
                () -> rest.completedCheckpoints(job) >= checkpoints + IDLE_CHECKPOINTS,
                "jobmanager");
        Delivery delivery = Delivery.of(sample, docs.poll(Duration.ofSeconds(1)));
        if (!delivery.missing().isEmpty()) {
            throw new AssertionError(String.format(
                    "%s: missing documents %s (%s); %s%s",
                    scenario, delivery.missing(), moment, whereTheMissingWent(name, delivery.missing()), jobLogs(job)));
        }
        assertThat(delivery.duplicated())
                .as("%s: documents seen twice under read_committed (%s)%s", scenario, moment, jobLogs(job))
                .isEmpty();
        return delivery;
    }

    /**
     * Polls the documents topic until {@code n} distinct documents of {@code sample} arrived. Fails
     * at once when the job fails with a class-loading or native-library error (or, when {@code clean},
     * with any error); when the job has read and checkpointed all its input, has no document in the
     * model, and {@link #IDLE_CHECKPOINTS} more checkpoints brought nothing new (nothing more can
     * come); and after
     * {@link #STALL} without a new document otherwise (a job too slow to watch).
     */
    private void awaitDocuments(
            String scenario,
            String job,
            String name,
            TopicReader<DocumentEntities> docs,
            List<String> sample,
            int n,
            boolean clean)
            throws Exception {
        long lastProgress = System.nanoTime();
        int size = 0;
        long idleSince = -1;
        long idleSinceNanos = 0;
        while (true) {
            List<DocumentEntities> read = docs.poll(Duration.ofSeconds(1));
            if (Delivery.distinct(read) >= n) {
                return;
            }
            if (read.size() > size) {
                size = read.size();
                lastProgress = System.nanoTime();
                idleSince = -1;
            }
            List<String> errors = rest.exceptions(job);
            boolean fatal = errors.stream()
                    .anyMatch(e -> e.contains("UnsatisfiedLinkError")
                            || e.contains("NoClassDefFoundError")
                            || e.contains("ClassNotFoundException"));
            long checkpoints = rest.completedCheckpoints(job);
            if (!ConsumerProgress.checkpointedAll(kafka.bootstrapServers(), name, name + "-abstracts")
                    || rest.documentsInFlight(job) != 0) {
                idleSince = -1;
            } else if (idleSince < 0) {
                idleSince = checkpoints;
                idleSinceNanos = System.nanoTime();
            }
            boolean idle = idleSince >= 0
                    && checkpoints >= idleSince + IDLE_CHECKPOINTS
                    && System.nanoTime() - idleSinceNanos > IDLE_METRICS.toNanos();
            boolean stalled = System.nanoTime() - lastProgress > STALL.toNanos();
            if (fatal || (clean && !errors.isEmpty()) || idle || stalled) {
                Set<String> missing = Delivery.of(sample, read).missing();
                String why = idle
                        ? String.format(
                                "the job read and checkpointed all its input and has no document in the model, then"
                                        + " %d checkpoints brought nothing new",
                                IDLE_CHECKPOINTS)
                        : stalled ? "no new document for " + STALL : "the job failed";
                throw new AssertionError(String.format(
                        "%s: %d of %d documents on the output topic, %s; missing %s (job %s %s, %d checkpoints);"
                                + " %s; job exceptions, newest first:%n%s%s",
                        scenario,
                        Delivery.distinct(read),
                        n,
                        why,
                        missing,
                        job,
                        rest.jobState(job),
                        checkpoints,
                        whereTheMissingWent(name, missing),
                        String.join("\n", errors.subList(0, Math.min(5, errors.size()))),
                        jobLogs(job)));
            }
        }
    }

    /**
     * Where documents missing under read_committed went: written in a transaction never committed
     * (seen by a read_uncommitted consumer), dead-lettered, or never written; and what the Kafka
     * sinks' committers and writers logged about transactions, in every TaskManager (a killed one too).
     */
    private String whereTheMissingWent(String name, Set<String> missing) {
        StringBuilder why = new StringBuilder();
        try (TopicReader<DocumentEntities> uncommitted = new TopicReader<>(
                        kafka.bootstrapServers(),
                        name + "-documents",
                        DocumentEntities.class,
                        OutputFormat.AVRO,
                        false);
                TopicReader<DeadLetter> deadLetters =
                        new TopicReader<>(kafka.bootstrapServers(), name + "-dlq", DeadLetter.class)) {
            Set<String> written = new TreeSet<>();
            List<DeadLetter> letters = List.of();
            List<DocumentEntities> all = List.of();
            for (int i = 0; i < 5; i++) {
                all = uncommitted.poll(Duration.ofSeconds(1));
                letters = deadLetters.poll(Duration.ofSeconds(1));
            }
            all.forEach(d -> written.add(d.getDocumentId().toString()));
            written.retainAll(missing);
            why.append("records on the topic, read_uncommitted: ")
                    .append(all.size())
                    .append("; of the missing, written in transactions never committed: ")
                    .append(written)
                    .append("; tombstones: ")
                    .append(uncommitted.tombstones());
            why.append("; dead letters: ").append(letters.size());
            letters.stream().limit(3).forEach(l -> why.append(" [")
                    .append(l.getStage())
                    .append(": ")
                    .append(l.getErrorMessage())
                    .append(']'));
        } catch (RuntimeException e) {
            why.append("(the topics could not be read: ").append(e).append(')');
        }
        try {
            why.append("\nopen transactions on the broker: ").append(kafka.openTransactions());
        } catch (Exception e) {
            why.append("\nopen transactions on the broker: unknown (").append(e).append(')');
        }
        why.append("\ntransactions in the TaskManagers' logs:\n");
        for (String tm : flink.names()) {
            flink.log(tm)
                    .lines()
                    .filter(l -> l.contains(name + "-")
                            && (l.contains("KafkaCommitter")
                                    || l.contains("resume transaction")
                                    || l.contains("Adding split")
                                    || l.contains("Prepare KafkaCommittable")
                                    || l.contains("Committing Kafka transaction")))
                    .limit(80)
                    .forEach(l -> why.append(tm)
                            .append(": ")
                            .append(l, 0, Math.min(l.length(), 400))
                            .append('\n'));
        }
        return why.toString();
    }

    /** The process's footprint, kept under {@code key}, with its jcmd reports in {@link #dir}. */
    private void measure(String key, String process) throws Exception {
        footprints.put(key, NativeFootprint.of(flink.process(process).pid(), dir.resolve(key.replace(' ', '-'))));
    }

    private NativeFootprint footprint(String key) {
        NativeFootprint f = footprints.get(key);
        if (f == null) {
            throw new AssertionError("no measurement '" + key + "' (an earlier scenario failed?): " + footprints);
        }
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

    /**
     * The last lines of the JobManager's log and of the TaskManagers that ran {@code job} (a
     * replacement after a kill included); all TaskManagers' when the REST API cannot say.
     */
    private String jobLogs(String job) {
        Set<String> tms;
        try {
            tms = rest.taskManagersOf(job);
        } catch (IOException | InterruptedException e) {
            tms = new TreeSet<>(flink.names());
            tms.remove("jobmanager");
        }
        StringBuilder logs = new StringBuilder("\nlogs (TaskManagers of " + job + ": " + tms + "):\n");
        logs.append(flink.tail("jobmanager", 15));
        for (String tm : tms) {
            logs.append(flink.tail(tm, 25));
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
