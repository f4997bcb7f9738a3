package dev.bionerstream.kafka;

import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.job.DocumentUpdate;
import dev.bionerstream.job.JobConfig;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.formats.avro.AvroSerializationSchema;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;

/** The Kafka source and sinks of the job, from its config. */
public final class KafkaIO {
    private KafkaIO() {}

    public static KafkaSource<RawRecord> source(JobConfig cfg) {
        return KafkaSource.<RawRecord>builder()
                .setBootstrapServers(cfg.bootstrapServers())
                .setTopics(cfg.inputTopic())
                .setGroupId(cfg.groupId())
                .setStartingOffsets(startingOffsets(cfg.startingOffsets()))
                .setDeserializer(new RawRecordDeserializer())
                .setProperties(cfg.kafkaClientProperties())
                .setProperty("commit.offsets.on.checkpoint", "true")
                .build();
    }

    public static OffsetsInitializer startingOffsets(String spec) {
        return switch (spec) {
            case "earliest" -> OffsetsInitializer.earliest();
            case "latest" -> OffsetsInitializer.latest();
            case "committed" -> OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST);
            default -> OffsetsInitializer.timestamp(Long.parseLong(spec.substring("timestamp:".length())));
        };
    }

    /** Key extractor that Flink can serialize. */
    public interface Key<T> extends java.io.Serializable {
        String of(T value);
    }

    /** An Avro sink keyed by document id; exactly-once sinks get their own transactional id prefix. */
    public static <T extends SpecificRecord> KafkaSink<T> sink(
            JobConfig cfg, String topic, Class<T> type, Key<T> key, String name) {
        return sink(cfg, topic, AvroSerializationSchema.forSpecific(type), key, name);
    }

    /** The documents sink: a document's record, or a tombstone (null value) for a deleted document. */
    public static KafkaSink<DocumentUpdate> documentsSink(JobConfig cfg) {
        return sink(cfg, cfg.documentsTopic(), new TombstoneOrAvro(), u -> u.documentId, "documents");
    }

    private static <T> KafkaSink<T> sink(
            JobConfig cfg, String topic, SerializationSchema<T> valueSchema, Key<T> key, String name) {
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
    public static <T> KafkaSink<T> sink(JobConfig cfg, KafkaRecordSerializationSchema<T> records, String name) {
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

    /** Kafka's deletion convention: a record with a key and no value, which compaction also honours. */
    static final class TombstoneOrAvro implements SerializationSchema<DocumentUpdate> {
        private final AvroSerializationSchema<DocumentEntities> avro =
                AvroSerializationSchema.forSpecific(DocumentEntities.class);

        @Override
        public void open(InitializationContext context) throws Exception {
            avro.open(context);
        }

        @Override
        public byte[] serialize(DocumentUpdate update) {
            return update.isDeletion() ? null : avro.serialize(update.document);
        }
    }
}
