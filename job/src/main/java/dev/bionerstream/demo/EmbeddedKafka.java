package dev.bionerstream.demo;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.PreboundSocketFactoryManager;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * A real single-node Kafka broker (KRaft, combined controller and broker) in this JVM, from
 * Kafka's own jars: the demo's and the integration tests' broker. It listens on 127.0.0.1 only,
 * its client and its controller port alike. Always close it.
 *
 * <p>It lives in {@code src/main} although it uses Kafka's test kit because {@code ./bioner demo}
 * needs a broker on a machine with nothing installed; the shaded cluster jar leaves the kit out.
 */
public final class EmbeddedKafka implements AutoCloseable {
    private final KafkaClusterTestKit cluster;

    private EmbeddedKafka(KafkaClusterTestKit cluster) {
        this.cluster = cluster;
    }

    public static EmbeddedKafka start() throws Exception {
        return start(Map.of());
    }

    /**
     * With more broker settings: a test that puts a proxy in front of the broker advertises the
     * proxy ({@code advertised.listeners=EXTERNAL://localhost:PORT}), so clients reach it there.
     */
    public static EmbeddedKafka start(Map<String, String> brokerConfig) throws Exception {
        KafkaClusterTestKit.Builder builder = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                        .setCombined(true)
                        .setNumBrokerNodes(1)
                        .setNumControllerNodes(1)
                        .build())
                .setConfigProp("offsets.topic.replication.factor", "1")
                .setConfigProp("transaction.state.log.replication.factor", "1")
                .setConfigProp("transaction.state.log.min.isr", "1")
                .setConfigProp("group.initial.rebalance.delay.ms", "0")
                .setConfigProp("listeners", LISTENERS);
        brokerConfig.forEach(builder::setConfigProp);
        KafkaClusterTestKit cluster = builder.build();
        try {
            formatQuietly(cluster);
            releasePreboundSockets(cluster);
            cluster.startup();
            cluster.waitForReadyBrokers();
        } catch (Exception e) {
            cluster.close();
            throw e;
        }
        return new EmbeddedKafka(cluster);
    }

    /**
     * Formats the kit's storage directories; the formatter prints its bootstrap metadata to {@code
     * System.out}, which is kept from the console unless formatting fails. One at a time in the JVM
     * (brokers that tests start side by side): two interleaved swaps of System.out would leave it
     * pointing at the other's buffer.
     */
    private static synchronized void formatQuietly(KafkaClusterTestKit cluster) throws Exception {
        PrintStream console = System.out;
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        System.setOut(new PrintStream(said, true, StandardCharsets.UTF_8));
        try {
            cluster.format();
        } catch (Exception | Error e) {
            console.print(said.toString(StandardCharsets.UTF_8));
            throw e;
        } finally {
            System.setOut(console);
        }
    }

    /**
     * The kit's own listener names, on loopback: the demo's broker takes no connections from other
     * machines. Port 0 here; the ports are the ones the kit picked (see below).
     */
    private static final String LISTENERS = "EXTERNAL://127.0.0.1:0,CONTROLLER://127.0.0.1:0";

    /**
     * The kit binds each listener's port ahead of time on the wildcard address (all interfaces),
     * whatever {@code listeners} says, and hands that socket to the broker. Closing the unused
     * sockets before startup makes the broker bind the same port itself, on the host of its
     * {@code listeners}: the controller quorum the kit configured still finds it (the port is free
     * for the moments between, which is a race only with a process that asks for that very port).
     * The manager is private to the kit, hence the reflection; EmbeddedKafkaITCase fails if this
     * stops working.
     */
    private static void releasePreboundSockets(KafkaClusterTestKit cluster) throws Exception {
        Field field = KafkaClusterTestKit.class.getDeclaredField("socketFactoryManager");
        field.setAccessible(true);
        ((PreboundSocketFactoryManager) field.get(cluster)).close();
    }

    /** Where the broker's KRaft controller listens ({@code host:port}, comma-separated). */
    public String bootstrapControllers() {
        return cluster.bootstrapControllers();
    }

    public String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    public void createTopics(int partitions, String... topics) throws Exception {
        try (Admin admin = admin()) {
            admin.createTopics(java.util.Arrays.stream(topics)
                            .map(t -> new NewTopic(t, partitions, (short) 1))
                            .toList())
                    .all()
                    .get();
        }
    }

    /** Transactions the broker holds open, with their states (what a read_committed reader waits on). */
    public List<String> openTransactions() throws Exception {
        try (Admin admin = admin()) {
            return admin.listTransactions().all().get().stream()
                    .filter(t -> t.state() != TransactionState.COMPLETE_COMMIT
                            && t.state() != TransactionState.COMPLETE_ABORT
                            && t.state() != TransactionState.EMPTY)
                    .map(t -> t.transactionalId() + " " + t.state())
                    .sorted()
                    .toList();
        }
    }

    /**
     * Waits until the broker's group coordinator answers for {@code group}. A broker just started
     * creates and loads its offsets topic on the first request for a group; until then the job's
     * offset commits after its first checkpoints fail (a warning each, harmless but alarming).
     */
    public void awaitGroupCoordinator(String group) throws Exception {
        try (Admin admin = admin()) {
            // The admin client retries "coordinator not available" and "load in progress" itself.
            admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata()
                    .get(2, TimeUnit.MINUTES);
        }
    }

    private Admin admin() {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrapServers());
        return Admin.create(p);
    }

    /** Writes the values, in order, as UTF-8 records without keys. */
    public void produce(String topic, List<String> values) {
        TopicWriter.produce(bootstrapServers(), topic, values);
    }

    public List<String> topics() throws Exception {
        try (Admin admin = admin()) {
            return admin.listTopics().names().get().stream().sorted().toList();
        }
    }

    @Override
    public void close() throws Exception {
        cluster.close();
    }
}
