package dev.bionerstream.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.demo.SampleAbstracts;
import dev.bionerstream.demo.TopicReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The soak run (not in {@code mvn verify}; {@code scripts/soak-cluster MINUTES} runs it): the cluster of
 * ClusterITCase (a JobManager and two TaskManagers as JVMs, docker-compose's Flink settings), a
 * KRaft broker of its own JVM and an OpenSearch node of its own JVM that the job indexes into, for
 * {@code -Dsoak.minutes} (60), abstracts fed throughout (one every {@code -Dsoak.feed-millis}, 2000);
 * every 1 to 3 minutes a {@code kill -9} of a random TaskManager, of the broker or of the OpenSearch
 * node, started again 5 to 20 s later ({@code -Dsoak.kills=false}: none); every {@code
 * -Dsoak.savepoint-seconds} (300) a stop-with-savepoint and a new job from the savepoint, as an
 * upgrade does; optionally busy threads beside it ({@code -Dsoak.cpu-load}) and a TaskManager frozen
 * before each stop ({@code -Dsoak.freeze-seconds}). Then it waits for the output and prints sent /
 * committed / missing / duplicated as a read_committed consumer sees them, the missing ones by the
 * upgrade period they were sent in, the index against the documents topic (documents missing from it
 * or not on the topic), and the JobManager's Metaspace and user class loaders at the start and the end.
 */
class ClusterSoak {
    static final int MINUTES = Integer.getInteger("soak.minutes", 60);
    static final String INDEX = "soak-documents";
    static final long FEED_MILLIS = Long.getLong("soak.feed-millis", 2000);
    /** Stop-with-savepoint and a new job from it, as the operator's savepoint upgrade does, this often. */
    static final int SAVEPOINT_SECONDS = Integer.getInteger("soak.savepoint-seconds", 300);
    /** The kills of TaskManagers and the broker; false leaves the upgrades alone. */
    static final boolean KILLS = Boolean.parseBoolean(System.getProperty("soak.kills", "true"));
    /**
     * Before each stop-with-savepoint, a TaskManager frozen (SIGSTOP) this long with its transactions
     * open, as a busy machine or a long GC pause holds it; 0 for none.
     */
    static final int FREEZE_SECONDS = Integer.getInteger("soak.freeze-seconds", 0);
    /** Busy threads beside the cluster (another heavy process on the machine). */
    static final int CPU_LOAD = Integer.getInteger("soak.cpu-load", 0);

    /** Its logs and summary; {@code -Dsoak.dir} names another folder under target/ (two soaks side by side). */
    private static final Path dir =
            Path.of("target", System.getProperty("soak.dir", "cluster-soak")).toAbsolutePath();

    private final Random random = new Random(Long.getLong("soak.seed", System.nanoTime()));

    @Test
    @Timeout(value = 6, unit = TimeUnit.HOURS)
    void killsAtRandomLoseAndRepeatNothing() throws Exception {
        Path root = ClusterSetup.repositoryRoot();
        ClusterSetup.deleteRecursively(dir);
        Files.createDirectories(dir);
        ComposeFlinkSettings compose = ComposeFlinkSettings.load(root.resolve("docker-compose.yml"));
        try (KafkaProcess broker = KafkaProcess.format(dir.resolve("kafka"));
                OpenSearchProcess index =
                        OpenSearchProcess.plain(dir.resolve("opensearch")).start();
                FlinkProcesses flink = FlinkProcesses.startJobManager(
                        dir,
                        ClusterSetup.clusterClasspath(root),
                        settings(compose),
                        ClusterSetup.jobManagerSettings(settings(compose)),
                        List.of(compose.taskManagerJavaOpts().split("\\s+")))) {
            broker.start();
            String bootstrap = broker.bootstrapServers();
            createTopics(bootstrap, "soak");
            List<String> tms = new ArrayList<>(List.of("tm-1", "tm-2"));
            for (String tm : tms) {
                flink.startTaskManager(tm);
            }
            FlinkRest rest = new FlinkRest(flink.restUrl());
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (rest.taskManagers().size() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(500);
            }
            String jar = rest.upload(ClusterSetup.jobJar());
            List<String> args = new ArrayList<>(ClusterSetup.jobArgs("soak", bootstrap));
            args.addAll(index.jobArgs(INDEX));
            String job = rest.run(jar, SessionCluster.ENTRY_CLASS, args, 2, Optional.empty());

            NativeFootprint jobManagerAtStart = measureJobManager(flink, "jobmanager-start");
            Feeder feeder = new Feeder(bootstrap);
            Thread feeding = new Thread(feeder, "soak-feeder");
            feeding.start();
            CpuLoad load = CpuLoad.start(CPU_LOAD);
            Map<String, Integer> kills = new HashMap<>(Map.of("taskmanager", 0, "broker", 0, "opensearch", 0));
            List<Long> stops = new ArrayList<>();
            List<String> exits = new ArrayList<>();
            List<String> failedStops = new ArrayList<>();
            long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(MINUTES);
            long nextSavepoint = System.nanoTime() + TimeUnit.SECONDS.toNanos(SAVEPOINT_SECONDS);
            int next = 3;
            try {
                while (System.nanoTime() < end) {
                    long wake = Math.min(nextSavepoint, end);
                    if (KILLS) {
                        wake = Math.min(wake, System.nanoTime() + TimeUnit.SECONDS.toNanos(60 + random.nextInt(120)));
                    }
                    TimeUnit.NANOSECONDS.sleep(Math.max(0, wake - System.nanoTime()));
                    if (System.nanoTime() >= end) {
                        break;
                    }
                    next = replaceExited(flink, tms, next, exits);
                    if (System.nanoTime() >= nextSavepoint) {
                        if (FREEZE_SECONDS > 0) {
                            String frozen = tms.get(random.nextInt(tms.size()));
                            log("freezing " + frozen + " for " + FREEZE_SECONDS + " s");
                            flink.freeze(frozen, Duration.ofSeconds(FREEZE_SECONDS));
                        }
                        long sentAtStop = feeder.sent.get();
                        Optional<String> resumed = stopWithSavepointAndResume(rest, jar, job, args, failedStops);
                        if (resumed.isPresent()) {
                            job = resumed.get();
                            stops.add(sentAtStop);
                        }
                        nextSavepoint = System.nanoTime() + TimeUnit.SECONDS.toNanos(SAVEPOINT_SECONDS);
                    } else if (random.nextInt(3) == 0) {
                        log("kill -9 OpenSearch");
                        index.kill();
                        Thread.sleep(TimeUnit.SECONDS.toMillis(5 + random.nextInt(16)));
                        index.start();
                        kills.merge("opensearch", 1, Integer::sum);
                    } else if (random.nextBoolean()) {
                        String victim = tms.remove(random.nextInt(tms.size()));
                        log("kill -9 " + victim);
                        flink.kill(victim);
                        Thread.sleep(TimeUnit.SECONDS.toMillis(5 + random.nextInt(16)));
                        String fresh = "tm-" + next++;
                        flink.startTaskManager(fresh);
                        tms.add(fresh);
                        kills.merge("taskmanager", 1, Integer::sum);
                    } else {
                        log("kill -9 broker");
                        broker.kill();
                        Thread.sleep(TimeUnit.SECONDS.toMillis(5 + random.nextInt(16)));
                        broker.start();
                        kills.merge("broker", 1, Integer::sum);
                    }
                }
            } finally {
                load.close();
                feeder.stop.set(true);
                feeding.join();
            }
            log("feeding stopped; waiting for the output");
            try (TopicReader<DocumentEntities> docs =
                    new TopicReader<>(bootstrap, "soak-documents", DocumentEntities.class)) {
                Set<String> sent = feeder.acknowledged;
                docs.pollWhileProgressing(
                        "every acknowledged abstract's document",
                        l -> l.stream()
                                .map(DocumentEntities::getDocumentId)
                                .toList()
                                .containsAll(sent),
                        Duration.ofMinutes(10));
                Thread.sleep(10_000); // a duplicate would be committed with one of the next checkpoints
                List<String> ids = docs.poll(Duration.ofSeconds(1)).stream()
                        .map(DocumentEntities::getDocumentId)
                        .toList();
                Set<String> distinct = new HashSet<>(ids);
                Set<String> missing = new HashSet<>(sent);
                missing.removeAll(distinct);
                int duplicated = ids.size() - distinct.size();
                Set<String> onTopic = docs.current().values().stream()
                        .map(DocumentEntities::getEventId)
                        .collect(java.util.stream.Collectors.toSet());
                Set<String> indexed = indexedIds(index);
                long indexDeadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
                while (!indexed.containsAll(onTopic) && System.nanoTime() < indexDeadline) {
                    Thread.sleep(2000); // the sink flushes with the checkpoints, a moment after the topic's commit
                    indexed = indexedIds(index);
                }
                Set<String> notIndexed = new HashSet<>(onTopic);
                notIndexed.removeAll(indexed);
                Set<String> notOnTopic = new HashSet<>(indexed);
                notOnTopic.removeAll(onTopic);
                NativeFootprint jobManagerAtEnd = measureJobManager(flink, "jobmanager-end");
                String summary = String.format(
                        "soak: %d min, %d kill -9 of a TaskManager, %d of the broker, %d of OpenSearch, %d"
                                + " stop-with-savepoint (%d of them failed to stop, resumed from their savepoint); sent %d"
                                + " (acknowledged; %d more unacknowledged), committed %d (%d distinct), missing %d,"
                                + " duplicated %d; index %d documents, %d of the topic's missing from it, %d not on the"
                                + " topic; %d TaskManager(s) exited on their own and were replaced; JobManager Metaspace %d MB"
                                + " -> %d MB, user class loaders %d -> %d; job %s %s",
                        MINUTES,
                        kills.get("taskmanager"),
                        kills.get("broker"),
                        kills.get("opensearch"),
                        stops.size(),
                        failedStops.size(),
                        sent.size(),
                        feeder.unacknowledged.size(),
                        ids.size(),
                        distinct.size(),
                        missing.size(),
                        duplicated,
                        indexed.size(),
                        notIndexed.size(),
                        notOnTopic.size(),
                        exits.size(),
                        jobManagerAtStart.metaspaceKb() / 1024,
                        jobManagerAtEnd.metaspaceKb() / 1024,
                        jobManagerAtStart.userClassLoaders(),
                        jobManagerAtEnd.userClassLoaders(),
                        job,
                        rest.jobState(job));
                String lossByPeriod = feeder.missingByPeriod(missing, stops);
                log(summary);
                log(lossByPeriod);
                Files.writeString(
                        dir.resolve("summary.txt"),
                        String.join("\n", summary, lossByPeriod, "failed stops: " + failedStops, ""));
                assertThat(missing).as(summary).isEmpty();
                assertThat(duplicated).as(summary).isZero();
                assertThat(failedStops).as(summary).isEmpty();
                assertThat(notIndexed).as(summary).isEmpty();
                assertThat(notOnTopic).as(summary).isEmpty();
            }
        }
    }

    /**
     * Stops {@code job} with a savepoint (no drain), as the operator's savepoint upgrade does, and runs
     * the same jar from it: the new job's id, or empty when no savepoint was written (a restart in
     * progress after a kill) and {@code job} runs on. A stop whose savepoint was written but whose tasks
     * failed while finishing leaves the job failed; as Flink's message says, the new job starts from that
     * savepoint all the same, and {@code failedStops} counts it.
     */
    private static Optional<String> stopWithSavepointAndResume(
            FlinkRest rest, String jar, String job, List<String> args, List<String> failedStops) throws Exception {
        log("stop-with-savepoint " + job);
        String trigger =
                rest.stopWithSavepoint(job, dir.resolve("savepoints").toUri().toString());
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        Optional<FlinkRest.StopOutcome> outcome = Optional.empty();
        while (outcome.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(500);
            outcome = rest.stopOutcome(job, trigger);
        }
        FlinkRest.StopOutcome stop =
                outcome.orElseThrow(() -> new IllegalStateException("no savepoint after 10 minutes"));
        if (!stop.stopped()) {
            String cause = stop.failure()
                    .lines()
                    .limit(2)
                    .reduce((a, b) -> a + " | " + b)
                    .orElse("");
            log("stop-with-savepoint of " + job + " failed (" + rest.jobState(job) + "): " + cause);
            if (stop.location() == null) {
                return Optional.empty();
            }
            failedStops.add(job + ": " + cause);
            long failed = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
            while (!rest.jobState(job).equals("FAILED") && System.nanoTime() < failed) {
                Thread.sleep(500);
            }
        }
        String resumed = rest.run(jar, SessionCluster.ENTRY_CLASS, args, 2, Optional.of(stop.location()));
        log("resumed from " + stop.location() + " as " + resumed);
        return Optional.of(resumed);
    }

    /**
     * Starts a fresh TaskManager for each one that exited on its own (on a machine too busy for its
     * heartbeats it gives up after the registration timeout), as Kubernetes restarts a failed pod; without
     * one the job would wait for slots until the end. Returns the next TaskManager number.
     */
    private static int replaceExited(FlinkProcesses flink, List<String> tms, int next, List<String> exits)
            throws IOException {
        for (String tm : List.copyOf(tms)) {
            if (!flink.process(tm).isAlive()) {
                String fresh = "tm-" + next++;
                log(tm + " exited on its own (" + flink.process(tm).exitValue() + "); starting " + fresh);
                exits.add(tm);
                tms.remove(tm);
                flink.startTaskManager(fresh);
                tms.add(fresh);
            }
        }
        return next;
    }

    /** The ids of the documents in the soak's index, once every write acknowledged so far is visible. */
    private static Set<String> indexedIds(OpenSearchProcess index) throws Exception {
        index.request("POST", "/" + INDEX + "/_refresh", null);
        OpenSearchProcess.Answer answer =
                index.request("POST", "/" + INDEX + "/_search", "{\"size\": 10000, \"_source\": false}");
        Set<String> ids = new HashSet<>();
        new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(answer.body())
                .path("hits")
                .path("hits")
                .forEach(h -> ids.add(h.path("_id").asText()));
        return ids;
    }

    /** The JobManager's Metaspace and user class loaders after a full GC, its jcmd reports under {@code name}. */
    private NativeFootprint measureJobManager(FlinkProcesses flink, String name) throws Exception {
        NativeFootprint f = NativeFootprint.of(flink.process("jobmanager").pid(), dir.resolve(name));
        log(name + ": " + f);
        return f;
    }

    /**
     * ClusterITCase's settings; with {@link #FREEZE_SECONDS}, heartbeats that outlast the freeze, so
     * that a frozen TaskManager stands still with its transactions open instead of being replaced.
     */
    private Map<String, String> settings(ComposeFlinkSettings compose) {
        Map<String, String> conf = ClusterSetup.settings(compose, dir);
        if (FREEZE_SECONDS > 0) {
            conf.put("heartbeat.timeout", (FREEZE_SECONDS + 60) + " s");
        }
        return conf;
    }

    /** The job's topics, once the broker answers: a broker JVM on a busy machine takes minutes to start. */
    private static void createTopics(String bootstrap, String name) throws Exception {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        try (Admin admin = Admin.create(p)) {
            while (true) {
                try {
                    admin.createTopics(List.of(
                                    new NewTopic(name + "-abstracts", 2, (short) 1),
                                    new NewTopic(name + "-documents", 2, (short) 1),
                                    new NewTopic(name + "-entities", 2, (short) 1),
                                    new NewTopic(name + "-dlq", 2, (short) 1)))
                            .all()
                            .get();
                    return;
                } catch (java.util.concurrent.ExecutionException e) {
                    if (!(e.getCause() instanceof org.apache.kafka.common.errors.TimeoutException)
                            || System.nanoTime() > deadline) {
                        throw e;
                    }
                }
            }
        }
    }

    private static void log(String line) {
        System.out.printf("%tT %s%n", System.currentTimeMillis(), line);
    }

    /**
     * Writes one abstract per {@link #FEED_MILLIS} with a fresh id. An abstract whose write the broker
     * did not acknowledge (it was down) is not sent again, which could write it twice; it counts as
     * unacknowledged, and only the acknowledged ones must all arrive.
     */
    static final class Feeder implements Runnable {
        final AtomicBoolean stop = new AtomicBoolean();
        final Set<String> acknowledged = java.util.concurrent.ConcurrentHashMap.newKeySet();
        final Set<String> unacknowledged = java.util.concurrent.ConcurrentHashMap.newKeySet();
        /** Abstracts written so far, acknowledged or not; ids carry their number ("-soak-N"). */
        final java.util.concurrent.atomic.AtomicLong sent = new java.util.concurrent.atomic.AtomicLong();

        private final String bootstrap;

        Feeder(String bootstrap) {
            this.bootstrap = bootstrap;
        }

        @Override
        public void run() {
            ObjectMapper json = new ObjectMapper();
            List<String> sample = SampleAbstracts.load(1000);
            Properties p = new Properties();
            p.put("bootstrap.servers", bootstrap);
            p.put("acks", "all");
            p.put("delivery.timeout.ms", "30000");
            p.put("request.timeout.ms", "10000");
            try (KafkaProducer<byte[], byte[]> producer =
                    new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
                for (int n = 0; !stop.get(); n++) {
                    ObjectNode record = (ObjectNode) json.readTree(sample.get(n % sample.size()));
                    String id = record.get("id").asText() + "-soak-" + n;
                    record.put("id", id);
                    try {
                        producer.send(new ProducerRecord<>(
                                        "soak-abstracts",
                                        id.getBytes(StandardCharsets.UTF_8),
                                        json.writeValueAsBytes(record)))
                                .get();
                        acknowledged.add(id);
                    } catch (Exception e) {
                        unacknowledged.add(id);
                    }
                    sent.incrementAndGet();
                    Thread.sleep(FEED_MILLIS);
                }
            } catch (Exception e) {
                throw new IllegalStateException("feeder failed", e);
            }
        }

        /**
         * The missing abstracts by the period they were written in (between two stop-with-savepoints,
         * {@code stops} holding the count sent at each): which upgrade lost them.
         */
        String missingByPeriod(Set<String> missing, List<Long> stops) {
            Map<Integer, List<Long>> byPeriod = new java.util.TreeMap<>();
            for (String id : missing) {
                long n = Long.parseLong(id.substring(id.lastIndexOf('-') + 1));
                int period = (int) stops.stream().filter(s -> s <= n).count();
                byPeriod.computeIfAbsent(period, k -> new ArrayList<>()).add(n);
            }
            byPeriod.values().forEach(java.util.Collections::sort);
            return String.format(
                    "missing by period (period k = after the k-th of %d stop-with-savepoints): %s; %d of %d periods lost"
                            + " some",
                    stops.size(), byPeriod, byPeriod.size(), stops.size() + 1);
        }
    }
}
