package dev.bionerstream.demo;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** Writes UTF-8 values to a topic, in order, without keys, and waits until the broker has them all. */
public final class TopicWriter {
    private TopicWriter() {}

    public static void produce(String bootstrapServers, String topic, List<String> values) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrapServers);
        p.put("enable.idempotence", "true");
        try (var producer =
                new KafkaProducer<byte[], byte[]>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (String v : values) {
                producer.send(new ProducerRecord<>(topic, v.getBytes(StandardCharsets.UTF_8)));
            }
        }
    }
}
