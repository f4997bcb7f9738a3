package dev.bionerstream.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.avro.DeadLetter;
import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.demo.Delivery;
import dev.bionerstream.demo.EmbeddedKafka;
import dev.bionerstream.demo.LocalPipeline;
import dev.bionerstream.demo.SampleAbstracts;
import dev.bionerstream.demo.SharedService;
import dev.bionerstream.demo.TestPipelines;
import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.inference.Device;
import dev.bionerstream.inference.MrcSession;
import dev.bionerstream.inference.WindowLogits;
import dev.bionerstream.serving.SessionFactory;
import dev.bionerstream.serving.TestingMrcSession;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Faults inside the job, on a MiniCluster against a real broker, with a model that fails when told:
 * a batch that throws is retried (no dead letter), and an {@link Error} from the model fails the
 * task, which restarts from its last checkpoint with a fresh model. Either way every document
 * comes out exactly once for read_committed consumers.
 */
class FaultInjectionITCase {
    @RegisterExtension
    static final SharedService<EmbeddedKafka> KAFKA = SharedService.kafka();

    static final int ABSTRACTS = 60;
    static final AtomicInteger BATCHES = new AtomicInteger();
    static final AtomicInteger SESSIONS = new AtomicInteger();

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    /** Batch 3 throws an exception, batch 8 an Error; the rest answer as {@link TestingMrcSession}. */
    static final class FlakySession implements MrcSession {
        private final TestingMrcSession model = new TestingMrcSession(Set.of());

        @Override
        public List<WindowLogits> run(List<MrcWindow> batch) {
            int n = BATCHES.incrementAndGet();
            if (n == 3) {
                throw new IllegalStateException("injected failure of batch 3");
            }
            if (n == 8) {
                throw new OutOfMemoryError("injected native error in batch 8");
            }
            return model.run(batch);
        }

        @Override
        public String provider() {
            return "FLAKY";
        }

        @Override
        public Device device() {
            return model.device();
        }

        @Override
        public void close() {}
    }

    @Test
    void aFailingBatchIsRetriedAndABrokenModelRestartsTheTaskWithoutLossOrDuplicates() throws Exception {
        List<String> sample = SampleAbstracts.load(ABSTRACTS);
        SessionFactory flaky = (bundle, options) -> {
            SESSIONS.incrementAndGet();
            return new FlakySession();
        };
        Configuration flink = new Configuration();
        flink.setString("restart-strategy.type", "fixed-delay");
        flink.setString("restart-strategy.fixed-delay.attempts", "3");
        flink.setString("restart-strategy.fixed-delay.delay", "1 s");
        Configuration options = Configuration.fromMap(Map.of(
                "job.checkpoint-interval",
                "1 s",
                "kafka.transaction-timeout",
                "1 min",
                "batch.max-size",
                "8",
                "async.capacity",
                "4"));
        try (LocalPipeline run = TestPipelines.start(
                KAFKA, "faults", options, StreamExecutionEnvironment.getExecutionEnvironment(flink), flaky)) {
            run.produce(sample);
            var docs = run.documents;
            var dead = run.deadLetters;
            docs.pollWhileProgressing(
                    ABSTRACTS + " documents", l -> Delivery.distinct(l) >= ABSTRACTS, Duration.ofMinutes(5));
            Thread.sleep(4000); // a duplicate would be committed with one of the next checkpoints
            List<DocumentEntities> all = docs.poll(Duration.ofSeconds(1));
            List<DeadLetter> letters = dead.poll(Duration.ofSeconds(1));
            Delivery delivery = Delivery.of(sample, all);
            assertThat(delivery.missing())
                    .as(
                            "missing documents; dead letters: %s",
                            letters.stream().map(DeadLetter::getErrorMessage).toList())
                    .isEmpty();
            assertThat(delivery.duplicated()).as("documents seen twice").isEmpty();
            assertThat(letters).as("dead letters").isEmpty();
            assertThat(SESSIONS.get())
                    .as("models opened: the broken one was replaced")
                    .isGreaterThanOrEqualTo(2);
        }
    }
}
