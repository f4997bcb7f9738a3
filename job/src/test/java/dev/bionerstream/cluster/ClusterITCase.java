package dev.bionerstream.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.demo.Delivery;
import dev.bionerstream.demo.EmbeddedKafka;
import dev.bionerstream.demo.RunsBesideOthers;
import dev.bionerstream.demo.SampleAbstracts;
import dev.bionerstream.demo.SharedService;
import dev.bionerstream.demo.TopicReader;
import dev.bionerstream.linking.TinyVocabularies;
import dev.bionerstream.sink.opensearch.OpenSearchNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The cluster jar on a session cluster of separate JVMs ({@link SessionCluster}: a JobManager, two
 * TaskManagers, docker-compose's settings; the broker and the OpenSearch node the integration tests
 * share), one independent
 * scenario per test, each on topics, a consumer group and an index of its own: cancel and resubmit
 * from the newest retained checkpoint under traffic (nothing lost or repeated although each cancel
 * comes while the job holds documents its committed offsets already cover; one copy of each native
 * library, one user class loader, and a JobManager whose Metaspace and class loaders do not grow with
 * submissions); kill -9 of a TaskManager mid-stream and a restart after the surviving TaskManager
 * released the job's slots; the release before linking (built from this repository's history)
 * stopped with a savepoint and this release started from it. Parallelism 2 across both TaskManagers
 * throughout; read_committed consumers see every document exactly once; and building this release's
 * job logs no type-extraction failure on the JobManager ({@link SessionCluster#submit}). The scenarios
 * that check no link run with the test's tiny vocabularies ({@link #tinyVocabularies}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@RunsBesideOthers
class ClusterITCase {
    @RegisterExtension
    static final SharedService<EmbeddedKafka> KAFKA = SharedService.kafka();

    @RegisterExtension
    static final SharedService<OpenSearchNode> OPENSEARCH = OpenSearchNode.shared();

    /**
     * Cancel + resubmit this many times: the footprints after the last are compared with after the first
     * (a job's class loader left behind shows after the first, and a leak of one per job as 15-20 MB
     * more Metaspace after the second; a third took 40 s of the suite and caught nothing more).
     */
    static final int RESUBMISSIONS = 2;
    /**
     * Abstracts fed before each submission of the resubmission scenario: enough that the model is
     * still annotating some when the checkpoint after their reading completes (the cancel comes then).
     */
    static final int BATCH = 12;
    /** Scenario of the kill and of the savepoint: half of it before, half after. */
    static final int LONG = 24;
    /**
     * Growth of the JobManager's used Metaspace allowed from 1 to {@link #RESUBMISSIONS}+1 submissions:
     * a job's class loader left reachable holds 15-20 MB of classes.
     */
    static final long JOBMANAGER_METASPACE_GROWTH_KB = 10 * 1024;

    private final Path dir = Path.of("target", "cluster-itcase").toAbsolutePath();
    private SessionCluster cluster;
    private ClusterDelivery delivery;
    /** The release before linking, built from the repository's history while the first scenarios run. */
    private CompletableFuture<Path> earlierRelease;
    /**
     * {@code --link.bundles} of the test's tiny vocabularies, for the scenarios that check no link: a
     * TaskManager loads them through every step of the linker's loading, as it loads the shipped ones,
     * without the shipped ones' 15 s of CPU at each job start (six starts, on both TaskManagers).
     * The savepoint scenario, which checks that this release links, runs with the jar's.
     */
    private List<String> tinyVocabularies;

    private final Map<String, NativeFootprint> footprints = new LinkedHashMap<>();

    @BeforeAll
    void startCluster() throws Exception {
        cluster = SessionCluster.start(dir, KAFKA.get(), OPENSEARCH.get());
        delivery = new ClusterDelivery(cluster);
        tinyVocabularies = List.of("--link.bundles", TinyVocabularies.worldBundles(dir.resolve("vocabularies")));
        earlierRelease = CompletableFuture.supplyAsync(() -> {
            try {
                return EarlierRelease.jar(ClusterSetup.repositoryRoot(), dir);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @AfterEach
    void cancelWhatIsLeft() throws Exception {
        cluster.cancelWhatIsLeft();
    }

    @AfterAll
    void stopCluster() throws Exception {
        cluster.close();
    }

    /**
     * Run, then cancel and resubmit {@link #RESUBMISSIONS} times on the same TaskManagers, with
     * {@code --job.resume-from-checkpoint}, as docs/deployment-flink-cluster.md tells session-mode
     * users to: each cancel comes once the checkpoint after the new input's reading has completed
     * (its offsets committed) while the model still annotates some of it, which a start without
     * state would lose; each resubmission restores the cancelled job's newest checkpoint, and the
     * read_committed output holds every abstract once. Indexing too.
     */
    @Test
    void cancelAndResubmitFromTheNewestCheckpointLosesNothingAndLeavesNoClassLoaderBehind() throws Exception {
        String name = "resubmit";
        String scenario = "cancel + resubmit from the newest checkpoint";
        List<String> sample = SampleAbstracts.load(BATCH * (1 + RESUBMISSIONS));
        cluster.createTopics(name);
        List<String> args = new ArrayList<>(cluster.indexedJobArgs(name));
        args.addAll(tinyVocabularies);
        args.addAll(List.of(
                "--job.checkpoint-dir",
                dir.resolve("resubmit-checkpoints").toUri().toString(),
                "--job.resume-from-checkpoint",
                "true"));
        int atRisk = 0;
        try (TopicReader<DocumentEntities> docs = cluster.reader(name)) {
            cluster.kafka.produce(name + "-abstracts", sample.subList(0, BATCH));
            String job = cluster.submit(args, Optional.empty());
            for (int submission = 1; ; submission++) {
                List<String> fed = sample.subList(0, BATCH * submission);
                delivery.awaitDocuments(scenario + " #" + submission, job, name, docs, fed, fed.size(), true);
                if (submission == 1) {
                    // the REST API serves a cached view of the job, which can lag its tasks by a few seconds
                    String j = job;
                    cluster.await(
                            scenario + ": parallelism 2 across the two TaskManagers (subtasks' TaskManagers)",
                            () -> new TreeSet<>(cluster.rest.subtaskTaskManagers(j)).size() == 2,
                            "jobmanager");
                }
                checkNativeCodeOnce(scenario + " #" + submission, submission, job);
                if (submission > RESUBMISSIONS) {
                    Delivery all = delivery.assertExactlyOnce(scenario, "the end", job, name, sample, docs);
                    cluster.await(
                            scenario + ": the index holds the " + sample.size() + " documents",
                            () -> cluster.indexed(name) == sample.size(),
                            SessionCluster.STAYING);
                    cluster.cancel(scenario, job);
                    measure("submission " + submission + " jobmanager", "jobmanager");
                    System.out.printf(
                            "%s: %d submissions, %d documents, %d of them in the model at a cancel with their offsets"
                                    + " committed, 0 missing, 0 duplicated%n",
                            scenario, submission, all.received(), atRisk);
                    break;
                }
                cluster.kafka.produce(
                        name + "-abstracts", sample.subList(BATCH * submission, BATCH * (submission + 1)));
                atRisk += cancelOnceItsOffsetsAreCommitted(scenario, job, name, docs, BATCH * (submission + 1));
                // What a job leaves on the JobManager shows once it is gone.
                measure("submission " + submission + " jobmanager", "jobmanager");
                String resumed = cluster.submit(args, Optional.empty());
                String restored = restoredCheckpoint(scenario, resumed);
                assertThat(restored)
                        .as("%s: the checkpoint resubmission %d started from", scenario, submission)
                        .contains(name + "/" + job + "/chk-");
                job = resumed;
            }
        }
        assertThat(atRisk)
                .as(
                        "%s: documents in the model at a cancel whose offsets were committed (what a start without state"
                                + " loses): none in %d cancels, so the scenario did not show that they survive",
                        scenario, RESUBMISSIONS)
                .isPositive();
        checkFootprintsDidNotGrow(scenario);
    }

    /**
     * Cancels {@code job} as soon as its consumer group's committed offsets cover all {@code fed}
     * abstracts while some have no document yet (they are in the model: a start without state would
     * lose them), or once all have one; returns how many had none at the cancel.
     */
    private int cancelOnceItsOffsetsAreCommitted(
            String scenario, String job, String name, TopicReader<DocumentEntities> docs, int fed) throws Exception {
        cluster.await(
                scenario + ": " + job + " checkpointed the reading of all " + fed + " abstracts",
                () -> Delivery.distinct(docs.poll(Duration.ofMillis(100))) >= fed
                        || ConsumerProgress.checkpointedAll(
                                cluster.kafka.bootstrapServers(), name, name + "-abstracts"),
                "jobmanager");
        cluster.cancel(scenario, job);
        return fed - (int) Delivery.distinct(docs.poll(Duration.ofSeconds(1)));
    }

    /** The checkpoint {@code job} was restored from, as the REST API reports it once the job restored it. */
    private String restoredCheckpoint(String scenario, String job) throws Exception {
        List<String> path = new ArrayList<>();
        cluster.await(
                scenario + ": " + job + " restored a checkpoint",
                () -> {
                    String p = cluster.rest
                            .get("/jobs/" + job + "/checkpoints")
                            .path("latest")
                            .path("restored")
                            .path("external_path")
                            .asText("");
                    return !p.isEmpty() && path.add(p);
                },
                "jobmanager");
        return path.get(0);
    }

    /**
     * Measures the TaskManagers of {@code job} while it runs: in tm-a, one copy of each native library
     * and one user class loader.
     */
    private void checkNativeCodeOnce(String scenario, int submission, String job) throws Exception {
        for (String tm : cluster.rest.taskManagersOf(job)) {
            measure("submission " + submission + " " + tm, tm);
        }
        NativeFootprint tm = footprint("submission " + submission + " " + SessionCluster.STAYING);
        assertThat(tm.onnxRuntimeCopies())
                .as("%s: copies of libonnxruntime.so in tm-a (%s)", scenario, footprints)
                .isEqualTo(1);
        assertThat(tm.tokenizersCopies())
                .as("%s: copies of libtokenizers.so in tm-a (%s)", scenario, footprints)
                .isEqualTo(1);
        assertThat(tm.userClassLoaders())
                .as("%s: user class loaders alive in tm-a after GC, the running job's (%s)", scenario, footprints)
                .isLessThanOrEqualTo(1);
    }

    private void checkFootprintsDidNotGrow(String scenario) {
        String last = "submission " + (1 + RESUBMISSIONS);
        long first = footprint("submission 2 tm-a").rssKb();
        long rss = footprint(last + " tm-a").rssKb();
        System.out.printf(
                "tm-a RSS after 1 resubmission %d MB, after %d %d MB (%+.1f%%)%n",
                first / 1024, RESUBMISSIONS, rss / 1024, 100.0 * (rss - first) / first);
        assertThat((double) rss)
                .as("%s: tm-a RSS after %d resubmissions vs after 1 (%s)", scenario, RESUBMISSIONS, footprints)
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
    void killOfATaskManagerMidStreamThenRestartAfterSlotsReleasedLosesNothing() throws Exception {
        String scenario = "kill -9 of one TaskManager mid-stream";
        String name = "kill";
        List<String> sample = SampleAbstracts.load(LONG);
        List<String> args = new ArrayList<>(cluster.jobArgs(name));
        args.addAll(tinyVocabularies);
        String job = runOnFirstHalf(name, sample, args, Optional.empty(), null);
        try (TopicReader<DocumentEntities> docs = cluster.reader(name)) {
            delivery.awaitDocuments(scenario, job, name, docs, sample, 2, true);
            int seenAtKill = docs.poll(Duration.ofMillis(100)).size();
            String victim = new TreeSet<>(cluster.rest.subtaskTaskManagers(job))
                    .stream()
                            .filter(tm -> !tm.equals(SessionCluster.STAYING))
                            .findFirst()
                            .orElseThrow();
            cluster.flink.kill(victim);
            String restart = scenario + ", then restart after slots released";
            cluster.await(
                    restart + ": tm-a frees the job's slot while " + victim + " is gone",
                    () -> cluster.flink
                            .log(SessionCluster.STAYING)
                            .contains("Close JobManager connection for job " + job),
                    SessionCluster.STAYING,
                    "jobmanager");
            cluster.kafka.produce(name + "-abstracts", sample.subList(LONG / 2, LONG));
            String replacement = cluster.startTaskManager();
            String moment = seenAtKill + " seen at the kill of " + victim;
            delivery.awaitDocuments(restart + " (" + moment + ")", job, name, docs, sample, sample.size(), false);
            Delivery delivered = delivery.assertExactlyOnce(restart, moment, job, name, sample, docs);
            assertThat(new TreeSet<>(cluster.rest.subtaskTaskManagers(job)))
                    .as("%s: parallelism 2 across tm-a and the new %s", restart, replacement)
                    .containsExactly(SessionCluster.STAYING, replacement);
            System.out.printf("%s: %s, %d after, 0 missing, 0 duplicated%n", restart, moment, delivered.received());
        }
        cluster.cancel("kill scenario", job);
    }

    @Test
    void upgradeFromTheReleaseBeforeLinkingByStopWithSavepointLosesNothing() throws Exception {
        String scenario = "the release before linking, stop-with-savepoint -> this release from the savepoint";
        String name = "savepoint";
        List<String> sample = SampleAbstracts.load(LONG);
        String earlier = cluster.rest.upload(earlierRelease.join());
        // that release's manifest names only the command line: its entry class is given
        String job =
                runOnFirstHalf(name, sample, cluster.jobArgs(name), Optional.of(earlier), SessionCluster.ENTRY_CLASS);
        try (TopicReader<DocumentEntities> docs = cluster.reader(name)) {
            delivery.awaitDocuments(scenario + ": before the stop", job, name, docs, sample, 2, true);
            String trigger = cluster.rest.stopWithSavepoint(
                    job, dir.resolve("savepoints").toUri().toString());
            List<FlinkRest.StopOutcome> stop = new ArrayList<>();
            cluster.await(
                    scenario + ": the savepoint completes and the job stops",
                    () -> cluster.rest.stopOutcome(job, trigger).map(stop::add).isPresent(),
                    "jobmanager");
            int seenAtStop = docs.poll(Duration.ofMillis(100)).size();
            assertThat(stop.get(0).failure())
                    .as(
                            "%s: the stop of %s failed (%d documents seen)%s",
                            scenario, job, seenAtStop, delivery.jobLogs(job))
                    .isNull();
            String location = stop.get(0).location();
            cluster.kafka.produce(name + "-abstracts", sample.subList(LONG / 2, LONG));
            String resumed = cluster.submit(cluster.jobArgs(name), Optional.of(location));
            String moment = seenAtStop + " seen at the stop of " + job + " (savepoint " + location + ")";
            delivery.awaitDocuments(scenario + " (" + moment + ")", resumed, name, docs, sample, sample.size(), true);
            Delivery delivered = delivery.assertExactlyOnce(scenario, moment, resumed, name, sample, docs);
            List<DocumentEntities> read = docs.poll(Duration.ofMillis(100));
            assertThat(read.subList(0, seenAtStop))
                    .as("documents of the earlier release: no links")
                    .allSatisfy(d -> assertThat(d.getLinks()).isEmpty());
            assertThat(read.subList(seenAtStop, read.size()))
                    .as("documents of this release, from the savepoint: linked")
                    .anySatisfy(d -> assertThat(d.getLinks()).anyMatch(l -> l.getConceptId() != null));
            measure("resumed from savepoint tm-a", SessionCluster.STAYING);
            System.out.printf(
                    "%s: %s, %d after, 0 missing, 0 duplicated; tm-a %s%n",
                    scenario, moment, delivered.received(), footprints.get("resumed from savepoint tm-a"));
            cluster.cancel(scenario, resumed);
        }
    }

    /**
     * Fresh topics named after {@code name} with the first half of {@code sample}, and the job on them
     * with {@code args}: the uploaded {@code jar} with {@code entryClass}, or this build's jar.
     */
    private String runOnFirstHalf(
            String name, List<String> sample, List<String> args, Optional<String> jar, String entryClass)
            throws Exception {
        cluster.createTopics(name);
        cluster.kafka.produce(name + "-abstracts", sample.subList(0, sample.size() / 2));
        return jar.isPresent()
                ? cluster.run(jar.get(), entryClass, args, Optional.empty())
                : cluster.submit(args, Optional.empty());
    }

    /** The process's footprint, kept under {@code key}, with its jcmd reports in {@link #dir}. */
    private void measure(String key, String process) throws Exception {
        footprints.put(
                key, NativeFootprint.of(cluster.flink.process(process).pid(), dir.resolve(key.replace(' ', '-'))));
    }

    private NativeFootprint footprint(String key) {
        NativeFootprint f = footprints.get(key);
        if (f == null) {
            throw new AssertionError("no measurement '" + key + "' (an earlier step failed?): " + footprints);
        }
        return f;
    }
}
