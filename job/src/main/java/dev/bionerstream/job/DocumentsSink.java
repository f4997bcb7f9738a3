package dev.bionerstream.job;

import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.kafka.KafkaIO;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;

/** The documents sink: a document's record, or a tombstone (null value) for a deleted document. */
final class DocumentsSink {
    private DocumentsSink() {}

    static KafkaSink<DocumentUpdate> of(JobConfig cfg) {
        return KafkaIO.sink(
                cfg.kafka(),
                cfg.documentsTopic(),
                new TombstoneOrRecord(cfg.kafka().outputFormat().serializer(DocumentEntities.class)),
                u -> u.documentId,
                "documents");
    }

    /** Kafka's deletion convention: a record with a key and no value, which compaction also honours. */
    static final class TombstoneOrRecord implements SerializationSchema<DocumentUpdate> {
        private final SerializationSchema<DocumentEntities> records;

        TombstoneOrRecord(SerializationSchema<DocumentEntities> records) {
            this.records = records;
        }

        @Override
        public void open(InitializationContext context) throws Exception {
            records.open(context);
        }

        @Override
        public byte[] serialize(DocumentUpdate update) {
            return update.isDeletion() ? null : records.serialize(update.document);
        }
    }
}
