package dev.bionerstream.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.avro.DeadLetter;
import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.demo.Delivery;
import dev.bionerstream.demo.Heartbeat;
import dev.bionerstream.demo.TopicReader;
import dev.bionerstream.kafka.OutputFormat;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a scenario's job on the {@link SessionCluster} delivers, read_committed: waits for its
 * documents while it progresses, checks each arrived exactly once, and when one is missing says where
 * it went (written in a transaction never committed, dead-lettered, or never written) with the
 * job's state, exceptions and the logs of the processes that ran it.
 */
final class ClusterDelivery {
    /**
     * Checkpoints completed after the job read and checkpointed all its input and had no document in
     * flight in the model, with no new output: its transactions commit with the next checkpoint, so
     * more never comes.
     */
    static final int IDLE_CHECKPOINTS = 3;
    /** Longer than the REST API's metric fetch interval (10 s): an idle reading stays idle this long. */
    static final Duration IDLE_METRICS = Duration.ofSeconds(25);

    private final SessionCluster cluster;

    ClusterDelivery(SessionCluster cluster) {
        this.cluster = cluster;
    }

    /**
     * Polls the documents topic until {@code n} distinct documents of {@code sample} arrived. Fails
     * at once when the job fails with a class-loading or native-library error (or, when {@code clean},
     * with any error); when the job has read and checkpointed all its input, has no document in the
     * model, and {@link #IDLE_CHECKPOINTS} more checkpoints brought nothing new (nothing more can
     * come); and after {@link SessionCluster#STALL} without a new document otherwise (a job too slow
     * to watch).
     */
    void awaitDocuments(
            String scenario,
            String job,
            String name,
            TopicReader<DocumentEntities> docs,
            List<String> sample,
            int n,
            boolean clean)
            throws Exception {
        FlinkRest rest = cluster.rest;
        long lastProgress = System.nanoTime();
        int size = 0;
        long idleSince = -1;
        long idleSinceNanos = 0;
        try (Heartbeat heartbeat = Heartbeat.start(scenario + ": " + n + " documents of job " + job)) {
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
                if (!ConsumerProgress.checkpointedAll(cluster.kafka.bootstrapServers(), name, name + "-abstracts")
                        || rest.documentsInFlight(job) != 0) {
                    idleSince = -1;
                } else if (idleSince < 0) {
                    idleSince = checkpoints;
                    idleSinceNanos = System.nanoTime();
                }
                boolean idle = idleSince >= 0
                        && checkpoints >= idleSince + IDLE_CHECKPOINTS
                        && System.nanoTime() - idleSinceNanos > IDLE_METRICS.toNanos();
                boolean stalled = System.nanoTime() - lastProgress > SessionCluster.STALL.toNanos();
                if (fatal || (clean && !errors.isEmpty()) || idle || stalled) {
                    Set<String> missing = Delivery.of(sample, read).missing();
                    String why = idle
                            ? String.format(
                                    "the job read and checkpointed all its input and has no document in the model, then"
                                            + " %d checkpoints brought nothing new",
                                    IDLE_CHECKPOINTS)
                            : stalled ? "no new document for " + SessionCluster.STALL : "the job failed";
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
                heartbeat.soFar(String.format(
                        "%d documents, %d checkpoints completed, %s",
                        Delivery.distinct(read),
                        checkpoints,
                        idleSince < 0
                                ? "busy (input to read or checkpoint, or documents in the model)"
                                : "idle since checkpoint " + idleSince));
            }
        }
    }

    /**
     * Every document of {@code sample} exactly once under read_committed, after {@link
     * #IDLE_CHECKPOINTS} more checkpoints of {@code job} (a duplicate would be committed with one).
     */
    Delivery assertExactlyOnce(
            String scenario,
            String moment,
            String job,
            String name,
            List<String> sample,
            TopicReader<DocumentEntities> docs)
            throws Exception {
        long checkpoints = cluster.rest.completedCheckpoints(job);
        cluster.await(
                scenario + ": " + IDLE_CHECKPOINTS + " more checkpoints of " + job,
                () -> cluster.rest.completedCheckpoints(job) >= checkpoints + IDLE_CHECKPOINTS,
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
     * Where documents missing under read_committed went: written in a transaction never committed
     * (seen by a read_uncommitted consumer), dead-lettered, or never written; and what the Kafka
     * sinks' committers and writers logged about transactions, in every TaskManager (a killed one too).
     */
    String whereTheMissingWent(String name, Set<String> missing) {
        String bootstrap = cluster.kafka.bootstrapServers();
        StringBuilder why = new StringBuilder();
        try (TopicReader<DocumentEntities> uncommitted = new TopicReader<>(
                        bootstrap, name + "-documents", DocumentEntities.class, OutputFormat.AVRO, false);
                TopicReader<DeadLetter> deadLetters = new TopicReader<>(bootstrap, name + "-dlq", DeadLetter.class)) {
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
            why.append("\nopen transactions on the broker: ").append(cluster.kafka.openTransactions());
        } catch (Exception e) {
            why.append("\nopen transactions on the broker: unknown (").append(e).append(')');
        }
        why.append("\ntransactions in the TaskManagers' logs:\n");
        for (String tm : cluster.flink.names()) {
            cluster.flink
                    .log(tm)
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

    /**
     * The last lines of the JobManager's log and of the TaskManagers that ran {@code job} (a
     * replacement after a kill included); all TaskManagers' when the REST API cannot say.
     */
    String jobLogs(String job) {
        Set<String> tms;
        try {
            tms = cluster.rest.taskManagersOf(job);
        } catch (IOException | InterruptedException e) {
            tms = new TreeSet<>(cluster.flink.names());
            tms.remove("jobmanager");
        }
        StringBuilder logs = new StringBuilder("\nlogs (TaskManagers of " + job + ": " + tms + "):\n");
        logs.append(cluster.flink.tail("jobmanager", 15));
        for (String tm : tms) {
            logs.append(cluster.flink.tail(tm, 25));
        }
        return logs.toString();
    }
}
