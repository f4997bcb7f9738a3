package dev.bionerstream.ingest;

import java.nio.charset.StandardCharsets;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

/** Citations and deletions to the abstracts topic, dead letters to theirs; one sink, so one transaction. */
final class IngestRecordSerializer implements KafkaRecordSerializationSchema<IngestRecord> {
    private static final long serialVersionUID = 1L;

    private final String abstractsTopic;
    private final String deadLetterTopic;

    IngestRecordSerializer(String abstractsTopic, String deadLetterTopic) {
        this.abstractsTopic = abstractsTopic;
        this.deadLetterTopic = deadLetterTopic;
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(IngestRecord r, KafkaSinkContext context, Long timestamp) {
        String topic = r.kind == IngestRecord.Kind.DEAD_LETTER ? deadLetterTopic : abstractsTopic;
        return new ProducerRecord<>(topic, r.key.getBytes(StandardCharsets.UTF_8), r.value);
    }
}
