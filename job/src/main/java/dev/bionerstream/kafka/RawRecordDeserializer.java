package dev.bionerstream.kafka;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** Keeps the raw bytes: parsing happens downstream, where a bad record can go to the dead-letter topic. */
public class RawRecordDeserializer implements KafkaRecordDeserializationSchema<RawRecord> {
    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<RawRecord> out) {
        out.collect(new RawRecord(record.key(), record.value(), record.topic(), record.partition(), record.offset()));
    }

    @Override
    public TypeInformation<RawRecord> getProducedType() {
        return TypeInformation.of(RawRecord.class);
    }
}
