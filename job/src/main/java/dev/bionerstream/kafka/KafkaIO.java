package dev.bionerstream.kafka;

import java.nio.charset.StandardCharsets;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecordBase;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;

/** Kafka sources and sinks with a job's {@link KafkaConfig}: its cluster, client properties and delivery guarantee. */
public final class KafkaIO {
    private KafkaIO() {}

    /** The input topic's raw records, for the consumer group of {@code cfg}. */
    public static KafkaSource<RawRecord> source(KafkaConfig cfg, OffsetsInitializer startingOffsets) {
        return KafkaSource.<RawRecord>builder()
                .setBootstrapServers(cfg.bootstrapServers())
                .setTopics(cfg.inputTopic())
                .setGroupId(cfg.groupId())
                .setStartingOffsets(startingOffsets)
                .setDeserializer(new RawRecordDeserializer())
                .setProperties(cfg.kafkaClientProperties())
                .setProperty("commit.offsets.on.checkpoint", "true")
                .build();
    }

    /** Key extractor that Flink can serialize. */
    public interface Key<T> extends java.io.Serializable {
        String of(T value);
    }

    /** A sink of records in the job's output format; exactly-once sinks get their own transactional id prefix. */
    public static <T extends SpecificRecordBase> KafkaSink<T> sink(
            KafkaConfig cfg, String topic, Class<T> type, Key<T> key, String name) {
        return sink(cfg, topic, cfg.outputFormat().serializer(type), key, name);
    }

    /** A sink of values keyed by {@code key}; {@code name} makes its transactional ids unique. */
    public static <T> KafkaSink<T> sink(
            KafkaConfig cfg, String topic, SerializationSchema<T> valueSchema, Key<T> key, String name) {
        SerializationSchema<T> keySchema = v -> key.of(v).getBytes(StandardCharsets.UTF_8);
        return sink(
                cfg,
                KafkaRecordSerializationSchema.<T>builder()
                        .setTopic(topic)
                        .setKeySerializationSchema(keySchema)
                        .setValueSerializationSchema(valueSchema)
                        .build(),
                name);
    }

    /** A sink with the job's Kafka settings and delivery guarantee; {@code name} makes its transactional ids unique. */
    public static <T> KafkaSink<T> sink(KafkaConfig cfg, KafkaRecordSerializationSchema<T> records, String name) {
        Properties props = cfg.kafkaClientProperties();
        props.setProperty(
                "transaction.timeout.ms",
                String.valueOf(cfg.transactionTimeout().toMillis()));
        var builder = KafkaSink.<T>builder()
                .setBootstrapServers(cfg.bootstrapServers())
                .setKafkaProducerConfig(props)
                .setDeliveryGuarantee(cfg.deliveryGuarantee())
                .setRecordSerializer(records);
        if (cfg.deliveryGuarantee() == DeliveryGuarantee.EXACTLY_ONCE) {
            builder.setTransactionalIdPrefix(cfg.transactionalIdPrefix() + "-" + name);
        }
        return builder.build();
    }
}
