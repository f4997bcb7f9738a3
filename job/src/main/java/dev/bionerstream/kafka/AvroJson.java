package dev.bionerstream.kafka;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.UncheckedIOException;
import org.apache.avro.specific.SpecificRecord;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * The job's Avro records as plain JSON objects, written by Jackson from the generated classes: the
 * fields of the {@code .avsc} schema in its order, an optional field as its value or null, an enum by
 * name, bytes in base64 and a timestamp in epoch milliseconds, as {@code schemas/json/} describes
 * them. Not Avro's own JSON encoding, which wraps every union value (<code>{"string": "..."}</code>)
 * and leaves JSON consumers (Kafka Connect's converters, ksqlDB, kcat) to unwrap it.
 */
final class AvroJson {
    /** Also reads the JSON back into the generated classes, for this project's own readers of the topics. */
    static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .addMixIn(SpecificRecordBase.class, GeneratedRecord.class)
            .disable(SerializationFeature.WRITE_DATE_TIMESTAMPS_AS_NANOSECONDS)
            .disable(DeserializationFeature.READ_DATE_TIMESTAMPS_AS_NANOSECONDS)
            // a later release's fields are skipped, as an Avro reader of an older schema skips them
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private AvroJson() {}

    static byte[] write(SpecificRecord record) {
        try {
            return MAPPER.writeValueAsBytes(record);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The generated classes' getters of their schema and data model are not fields of the record. */
    @JsonIgnoreProperties({"schema", "specificData"})
    private abstract static class GeneratedRecord {}
}
