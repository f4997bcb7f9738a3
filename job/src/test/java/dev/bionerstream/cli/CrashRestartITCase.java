package dev.bionerstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.demo.Delivery;
import dev.bionerstream.demo.EmbeddedKafka;
import dev.bionerstream.demo.SampleAbstracts;
import dev.bionerstream.demo.SharedService;
import dev.bionerstream.demo.TestTopics;
import dev.bionerstream.demo.TopicReader;
import dev.bionerstream.linking.TinyVocabularies;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./bioner run} as an operator runs it, in its own process against a real broker: killed
 * with SIGKILL mid-stream and started again with the same command, it resumes from its newest
 * checkpoint, and a read_committed consumer sees every document exactly once.
 */
class CrashRestartITCase {
    /**
     * Enough for the real model on one thread to be killed in the middle of the stream (a quarter
     * committed, the rest in flight: as many as {@code --async.capacity} lets the model hold, and some
     * not yet read), few enough to keep the test to a minute or two. 32 held no more in the model at
     * the kill, and cost each run's restart 16 more abstracts.
     */
    static final int ABSTRACTS = 16;
    /** Fails only when no document arrives for this long: a busy machine is slow, not wrong. */
    static final Duration STALL = Duration.ofMinutes(5);

    @TempDir
    Path dir;

    @RegisterExtension
    static final SharedService<EmbeddedKafka> KAFKA = SharedService.kafka();

    @Test
    void killedAndRestartedTheJobLosesAndRepeatsNothing() throws Exception {
        EmbeddedKafka kafka = KAFKA.get();
        Crash crash = killAndRestart(kafka, "crash", List.of());
        assertThat(crash.delivery().duplicated())
                .as("documents seen twice under read_committed; logs:%n%s", crash.logs())
                .isEmpty();
        System.out.printf(
                "crash/restart: %d documents seen when killed, %d after the restart, 0 missing, 0 duplicated%n",
                crash.seenAtKill(), crash.all().size());
        refusesTheCheckpointsAgainstAnotherKafkaCluster(crash.command(), kafka.bootstrapServers());
    }

    /**
     * At-least-once sinks write at once, without transactions: after a kill the restart replays what
     * the last checkpoint had not covered. Nothing is lost, and every repeated document is the same
     * record again (event id, model, text and entities; only its processing time differs), so a
     * consumer or the index keeps one by event id.
     */
    @Test
    void atLeastOnceKilledLosesNothingAndRepeatsOnlyIdenticalDocuments() throws Exception {
        EmbeddedKafka kafka = KAFKA.get();
        Crash crash =
                killAndRestart(kafka, "crash-at-least-once", List.of("--kafka.delivery-guarantee", "at-least-once"));
        Map<String, List<DocumentEntities>> copies = crash.all().stream()
                .collect(Collectors.groupingBy(d -> d.getDocumentId().toString()));
        copies.forEach((id, same) -> assertThat(same.stream().map(CrashRestartITCase::withoutProcessingTime))
                .as("copies of document %s; logs:%n%s", id, crash.logs())
                .containsOnly(withoutProcessingTime(same.get(0))));
        System.out.printf(
                "at-least-once crash/restart: %d documents seen when killed, %d records after the restart"
                        + " (%d repeated, each identical), 0 missing%n",
                crash.seenAtKill(),
                crash.all().size(),
                crash.delivery().duplicated().size());
    }

    /** What one kill -9 and restart of {@code ./bioner run} gave: the command, the documents, the logs. */
    private record Crash(
            List<String> command, int seenAtKill, List<DocumentEntities> all, Delivery delivery, String logs) {}

    /**
     * Runs {@code ./bioner run} (with {@code options}, on topics named after {@code name}) over the
     * sample, kills it with SIGKILL once a quarter of the documents is out, starts the same command
     * again, and waits for every document; checks that the restart resumed from a checkpoint and that
     * nothing is missing.
     */
    private Crash killAndRestart(EmbeddedKafka kafka, String name, List<String> options) throws Exception {
        List<String> sample = SampleAbstracts.load(ABSTRACTS);
        kafka.createTopics(1, name + "-abstracts", name + "-entities", name + "-documents", name + "-dlq");
        kafka.produce(name + "-abstracts", sample);
        // the java command ./bioner runs, JVM options included: the operator's command, whose start-ups
        // without the optimizing compiler's threads are faster on two cores than the test JVM's options
        List<String> command = new ArrayList<>(CliConsoleITCase.cliCommand(CliConsoleITCase.repositoryRoot()));
        command.addAll(List.of(
                "run",
                "--kafka.bootstrap-servers",
                kafka.bootstrapServers(),
                "--kafka.starting-offsets",
                "earliest",
                "--kafka.transaction-timeout",
                "1 min",
                "--job.checkpoint-interval",
                "2 s",
                "--job.checkpoint-dir",
                dir.resolve("checkpoints").toUri().toString(),
                "--model.threads",
                "1",
                "--async.capacity",
                "8"));
        command.addAll(TestTopics.args(name));
        // what is checked is delivery, not links: the test's tiny vocabularies go through every step of
        // the linker's loading in milliseconds, where the shipped ones take 15 s of CPU at each start
        command.addAll(List.of("--link.bundles", TinyVocabularies.worldBundles(dir.resolve("vocabularies"))));
        command.addAll(options);
        try (TopicReader<DocumentEntities> docs =
                new TopicReader<>(kafka.bootstrapServers(), name + "-documents", DocumentEntities.class)) {
            Process first = start(command, dir.resolve("first.log"));
            List<DocumentEntities> before = docs.pollWhileProgressing(
                    ABSTRACTS / 4 + " documents before the kill",
                    l -> l.size() >= ABSTRACTS / 4 || !first.isAlive(),
                    STALL);
            assertThat(first.isAlive())
                    .as("first run alive; its log:%n%s", tail(dir.resolve("first.log")))
                    .isTrue();
            first.destroyForcibly().waitFor();
            int seenAtKill = before.size();
            assertThat(Delivery.distinct(before))
                    .as("documents committed before the kill: the kill must come mid-stream")
                    .isLessThan(ABSTRACTS);

            Process second = start(command, dir.resolve("second.log"));
            try {
                docs.pollWhileProgressing(
                        ABSTRACTS + " documents after the restart",
                        l -> Delivery.distinct(l) >= ABSTRACTS || !second.isAlive(),
                        STALL);
                Thread.sleep(6000); // a duplicate would be committed with one of the next checkpoints
                List<DocumentEntities> all = List.copyOf(docs.poll(Duration.ofSeconds(1))); // every one read
                Delivery delivery = Delivery.of(sample, all);
                String logs = "first run:\n" + tail(dir.resolve("first.log")) + "\nsecond run:\n"
                        + tail(dir.resolve("second.log"));
                assertThat(Files.readString(dir.resolve("second.log"))).as(logs).contains("Resuming from checkpoint");
                assertThat(delivery.missing())
                        .as("missing documents (%d seen when killed); logs:%n%s", seenAtKill, logs)
                        .isEmpty();
                return new Crash(command, seenAtKill, all, delivery, logs);
            } finally {
                second.destroyForcibly().waitFor();
            }
        }
    }

    private static DocumentEntities withoutProcessingTime(DocumentEntities d) {
        return DocumentEntities.newBuilder(d).setProcessingTime(Instant.EPOCH).build();
    }

    /**
     * The same command against another Kafka cluster must not resume: the checkpoint's offsets are the
     * first cluster's. It stops before starting the job, saying which directory to delete.
     */
    private void refusesTheCheckpointsAgainstAnotherKafkaCluster(List<String> command, String first) throws Exception {
        try (EmbeddedKafka other = EmbeddedKafka.start()) {
            List<String> elsewhere = new java.util.ArrayList<>(command);
            elsewhere.set(elsewhere.indexOf(first), other.bootstrapServers());
            Process third = start(elsewhere, dir.resolve("third.log"));
            if (!third.waitFor(5, java.util.concurrent.TimeUnit.MINUTES)) {
                third.destroyForcibly().waitFor();
            }
            String log = Files.readString(dir.resolve("third.log"));
            assertThat(third.exitValue())
                    .as("exit code against another Kafka cluster; log:%n%s", log)
                    .isEqualTo(2);
            assertThat(log)
                    .as("against another Kafka cluster")
                    .contains("were taken against Kafka cluster")
                    .contains("Delete " + dir.resolve("checkpoints"))
                    .doesNotContain("Resuming from checkpoint");
        }
    }

    private static Process start(List<String> command, Path log) throws IOException {
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }

    private static String tail(Path log) throws IOException {
        if (!Files.exists(log)) {
            return "(no log)";
        }
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }
}
