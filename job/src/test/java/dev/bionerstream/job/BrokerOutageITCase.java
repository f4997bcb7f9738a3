package dev.bionerstream.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.avro.DeadLetter;
import dev.bionerstream.demo.Delivery;
import dev.bionerstream.demo.EmbeddedKafka;
import dev.bionerstream.demo.LocalPipeline;
import dev.bionerstream.demo.OwnMiniCluster;
import dev.bionerstream.demo.RunsBesideOthers;
import dev.bionerstream.demo.SampleAbstracts;
import dev.bionerstream.faults.TcpProxy;
import dev.bionerstream.serving.BundleChoice;
import dev.bionerstream.serving.SessionFactory;
import dev.bionerstream.serving.TestingMrcSession;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Kafka broker unreachable for 30 seconds in the middle of the stream (a proxy in front of it
 * passes nothing, as in a network partition): the job waits or restarts from its checkpoint, and a
 * read_committed consumer then sees every document exactly once.
 */
@RunsBesideOthers
class BrokerOutageITCase {
    static final int ABSTRACTS = 150;

    @RegisterExtension
    static final OwnMiniCluster FLINK = new OwnMiniCluster(1);

    @Test
    void aThirtySecondBrokerOutageLosesAndRepeatsNothing() throws Exception {
        List<String> sample = SampleAbstracts.load(ABSTRACTS);
        SessionFactory model = (bundle, options) -> {
            TestingMrcSession slow = new TestingMrcSession(Set.of());
            slow.delayMillis = 250; // the stream lasts about a minute: the outage falls in its middle
            return slow;
        };
        Configuration flink = new Configuration();
        flink.setString("restart-strategy.type", "fixed-delay");
        flink.setString("restart-strategy.fixed-delay.attempts", "10");
        flink.setString("restart-strategy.fixed-delay.delay", "5 s");
        Configuration options = Configuration.fromMap(
                Map.of("job.checkpoint-interval", "1 s", "kafka.transaction-timeout", "2 min", "async.capacity", "2"));
        // The broker advertises the proxy, so every client (the job's and the test's) goes through it.
        try (TcpProxy proxy = TcpProxy.start();
                LocalPipeline run = LocalPipeline.start(
                        startBroker(proxy),
                        "localhost:" + proxy.port(),
                        options,
                        BundleChoice.NO_INSTALLATION,
                        FLINK.environment(flink, 1),
                        model)) {
            run.produce(sample);
            var docs = run.documents;
            int beforeOutage = docs.pollWhileProgressing("a first document", l -> !l.isEmpty(), Duration.ofMinutes(5))
                    .size();
            try (TcpProxy.Outage outage = proxy.outage()) {
                Thread.sleep(30_000);
            }
            docs.pollWhileProgressing(
                    ABSTRACTS + " documents", l -> Delivery.distinct(l) >= ABSTRACTS, Duration.ofMinutes(5));
            Thread.sleep(4000); // a duplicate would be committed with one of the next checkpoints
            Delivery delivery = Delivery.of(sample, docs.poll(Duration.ofSeconds(1)));
            List<DeadLetter> letters = run.deadLetters.poll(Duration.ofSeconds(1));
            assertThat(delivery.missing())
                    .as(
                            "missing after the outage (%d documents out before it); dead letters %s",
                            beforeOutage,
                            letters.stream().map(DeadLetter::getErrorMessage).toList())
                    .isEmpty();
            assertThat(delivery.duplicated()).as("documents seen twice").isEmpty();
            assertThat(letters).as("dead letters").isEmpty();
            System.out.printf(
                    "broker outage: %d documents before the 30 s outage, %d after, 0 missing, 0 duplicated%n",
                    beforeOutage, delivery.received());
        }
    }

    static EmbeddedKafka startBroker(TcpProxy proxy) throws Exception {
        EmbeddedKafka kafka =
                EmbeddedKafka.start(Map.of("advertised.listeners", "EXTERNAL://localhost:" + proxy.port()));
        String broker = kafka.bootstrapServers();
        proxy.forwardTo(broker.replaceAll(":.*", ""), Integer.parseInt(broker.replaceAll(".*:", "")));
        return kafka;
    }
}
