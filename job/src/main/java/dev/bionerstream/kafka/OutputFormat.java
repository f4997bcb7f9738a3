package dev.bionerstream.kafka;

import java.io.EOFException;
import java.io.IOException;
import java.util.Locale;
import org.apache.avro.Schema;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;
import org.apache.avro.specific.SpecificRecordBase;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.formats.avro.AvroSerializationSchema;
import org.apache.flink.formats.avro.typeutils.AvroTypeInfo;

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

    /**
     * The sinks' value schema for records of {@code type}, which also says its type: the Kafka sink
     * reads it for lineage, and otherwise extracts it from the schema's class, which fails on a
     * generic class such as Avro's (an {@code InvalidTypesException} logged for every sink of every
     * job).
     */
    public <T extends SpecificRecordBase> SerializationSchema<T> serializer(Class<T> type) {
        return new Typed<>(
                switch (this) {
                    case AVRO -> AvroSerializationSchema.forSpecific(type);
                    case JSON -> AvroJson::write;
                },
                type);
    }

    /** A value schema that names the type it serializes. */
    static final class Typed<T extends SpecificRecordBase> implements SerializationSchema<T>, ResultTypeQueryable<T> {
        private final SerializationSchema<T> values;
        private final Class<T> type;

        Typed(SerializationSchema<T> values, Class<T> type) {
            this.values = values;
            this.type = type;
        }

        @Override
        public void open(InitializationContext context) throws Exception {
            values.open(context);
        }

        @Override
        public byte[] serialize(T record) {
            return values.serialize(record);
        }

        @Override
        public TypeInformation<T> getProducedType() {
            return new AvroTypeInfo<>(type);
        }
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
            case AVRO -> new AvroReader<>(type);
            case JSON -> AvroJson.MAPPER.readerFor(type)::readValue;
        };
    }

    /**
     * Binary Avro of today's schema or of the release before linking's: that release's records end
     * where the fields appended since begin, so a value that ends early is decoded with its schema
     * (the appended fields take their defaults).
     */
    static final class AvroReader<T extends SpecificRecord> implements Reader<T> {
        private final SpecificDatumReader<T> today;
        private final SpecificDatumReader<T> earlier;

        AvroReader(Class<T> type) {
            this.today = new SpecificDatumReader<>(type);
            Schema schema = SpecificData.get().getSchema(type);
            Schema before = EarlierSchemas.of(schema.getName());
            this.earlier = before == null ? null : new SpecificDatumReader<>(before, schema);
        }

        @Override
        public T read(byte[] value) throws IOException {
            try {
                return today.read(null, DecoderFactory.get().binaryDecoder(value, null));
            } catch (EOFException e) {
                if (earlier == null) {
                    throw e;
                }
                return earlier.read(null, DecoderFactory.get().binaryDecoder(value, null));
            }
        }
    }

    /** A topic's value back as its record. */
    @FunctionalInterface
    public interface Reader<T> {
        T read(byte[] value) throws IOException;
    }
}
