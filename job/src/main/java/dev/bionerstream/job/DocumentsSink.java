package dev.bionerstream.job;

import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.kafka.KafkaIO;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.formats.avro.AvroSerializationSchema;

/** The documents sink: a document's record, or a tombstone (null value) for a deleted document. */
final class DocumentsSink {
    private DocumentsSink() {}

    static KafkaSink<DocumentUpdate> of(JobConfig cfg) {
        return KafkaIO.sink(cfg.kafka(), cfg.documentsTopic(), new TombstoneOrAvro(), u -> u.documentId, "documents");
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
