package dev.bionerstream.demo;

import dev.bionerstream.kafka.OutputFormat;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads the records of the job's output topics from the beginning, in their {@code
 * kafka.output-format}: committed ones (read_committed), or, as a consumer that does not wait for
 * transactions would, all of them.
 */
public final class TopicReader<T extends SpecificRecord> implements AutoCloseable {
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final OutputFormat.Reader<T> reader;
    private final List<T> seen = new ArrayList<>();
    /** The topic as compaction would leave it: the newest value per key, tombstoned keys removed. */
    private final Map<String, T> current = new LinkedHashMap<>();

    private final List<String> tombstones = new ArrayList<>();
    private final String topic;

    /** Binary Avro, the jobs' default output format. */
    public TopicReader(String bootstrapServers, String topic, Class<T> type) {
        this(bootstrapServers, topic, type, OutputFormat.AVRO);
    }

    public TopicReader(String bootstrapServers, String topic, Class<T> type, OutputFormat format) {
        this(bootstrapServers, topic, type, format, true);
    }

    public TopicReader(
            String bootstrapServers, String topic, Class<T> type, OutputFormat format, boolean committedOnly) {
        this.topic = topic;
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrapServers);
        p.put("isolation.level", committedOnly ? "read_committed" : "read_uncommitted");
        consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        reader = format.reader(type);
    }

    /** Polls once and returns every value read so far (tombstones are in {@link #tombstones()}). */
    public List<T> poll(Duration timeout) {
        if (!assigned()) {
            sleep(timeout); // the topic does not exist yet
            return seen;
        }
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(timeout)) {
            String key = r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8);
            current.remove(key);
            if (r.value() == null) {
                tombstones.add(key);
                continue;
            }
            try {
                T value = reader.read(r.value());
                seen.add(value);
                current.put(key, value);
            } catch (java.io.IOException e) {
                throw new IllegalStateException(
                        "undecodable record at " + r.topic() + "/" + r.partition() + "@" + r.offset(), e);
            }
        }
        return seen;
    }

    /**
     * Reads the topic's partitions from the beginning, once they exist. Assigned, not subscribed: a
     * reader in a consumer group would, after losing its group session (a broker outage), start
     * again from the earliest offset and see every record twice.
     */
    private boolean assigned() {
        if (consumer.assignment().isEmpty()) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(i -> new TopicPartition(topic, i.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
        }
        return !consumer.assignment().isEmpty();
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The newest value of each key read so far, in the order they last changed; deleted keys are gone. */
    public Map<String, T> current() {
        return current;
    }

    /** Keys of the tombstones read so far, in order. */
    public List<String> tombstones() {
        return tombstones;
    }

    /** Polls until {@code done} holds for what was read, or {@code timeout} passes. */
    public List<T> pollUntil(Predicate<List<T>> done, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.test(seen) && System.nanoTime() < deadline) {
            poll(Duration.ofMillis(500));
        }
        return seen;
    }

    /**
     * Polls until {@code done} holds, for as long as records keep arriving: gives up only after
     * {@code stall} without a new one, so a slow machine is not mistaken for a lost record.
     */
    public List<T> pollWhileProgressing(Predicate<List<T>> done, Duration stall) {
        return pollWhileProgressing(done, stall, null);
    }

    /**
     * As {@link #pollWhileProgressing(Predicate, Duration)}, with a {@link Heartbeat} line while it
     * waits: {@code what} it waits for (e.g. "40 documents"), and how many records it has read.
     */
    public List<T> pollWhileProgressing(String what, Predicate<List<T>> done, Duration stall) {
        try (Heartbeat heartbeat = Heartbeat.start(what + " on " + topic)) {
            return pollWhileProgressing(done, stall, heartbeat);
        }
    }

    private List<T> pollWhileProgressing(Predicate<List<T>> done, Duration stall, Heartbeat heartbeat) {
        long lastProgress = System.nanoTime();
        int size = seen.size() + tombstones.size();
        while (!done.test(seen) && System.nanoTime() - lastProgress < stall.toNanos()) {
            poll(Duration.ofMillis(500));
            if (seen.size() + tombstones.size() > size) {
                size = seen.size() + tombstones.size();
                lastProgress = System.nanoTime();
            }
            if (heartbeat != null) {
                long quiet = Duration.ofNanos(System.nanoTime() - lastProgress).toSeconds();
                heartbeat.soFar((size == 0 ? "no record yet" : size + " records, none new for " + quiet + " s")
                        + " (gives up after " + stall + " without a new one)");
            }
        }
        if (!done.test(seen)) {
            // The caller's assertions say what is missing; this says why the wait ended.
            System.err.printf("stalled: no new record on %s for %s (%d read); stopped waiting%n", topic, stall, size);
        }
        return seen;
    }

    @Override
    public void close() {
        consumer.close();
    }
}
