package dev.bionerstream.kafka;

import java.io.IOException;
import java.util.Locale;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.formats.avro.AvroSerializationSchema;

/**
 * How the jobs write the values of their output topics ({@code kafka.output-format}): entity events,
 * documents and dead letters, with the fields of their {@code schemas/*.avsc}.
 */
public enum OutputFormat {
    /** Binary Avro, no schema-registry header. */
    AVRO,
    /** A UTF-8 JSON object per value ({@link AvroJson}; JSON Schemas in {@code schemas/json/}). */
    JSON;

    /** The option's value as a user writes it, also in help texts and messages. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }

    public <T extends SpecificRecord> SerializationSchema<T> serializer(Class<T> type) {
        return switch (this) {
            case AVRO -> AvroSerializationSchema.forSpecific(type);
            case JSON -> new AvroJson.Serializer<>();
        };
    }

    /** One record's value, where a sink serializes records of several kinds itself. */
    public byte[] bytes(SpecificRecord record) {
        return switch (this) {
            case AVRO -> AvroBytes.of(record);
            case JSON -> AvroJson.write(record);
        };
    }

    /** Reads values written in this format back into records of {@code type}. */
    public <T extends SpecificRecord> Reader<T> reader(Class<T> type) {
        return switch (this) {
            case AVRO -> {
                SpecificDatumReader<T> avro = new SpecificDatumReader<>(type);
                yield value -> avro.read(null, DecoderFactory.get().binaryDecoder(value, null));
            }
            case JSON -> AvroJson.MAPPER.readerFor(type)::readValue;
        };
    }

    /** A topic's value back as its record. */
    @FunctionalInterface
    public interface Reader<T> {
        T read(byte[] value) throws IOException;
    }
}
