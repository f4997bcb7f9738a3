package dev.bionerstream.records;

import static dev.bionerstream.records.Records.avro;
import static dev.bionerstream.records.Records.avroOfSchema;
import static dev.bionerstream.records.Records.bytes;
import static dev.bionerstream.records.Records.concat;
import static dev.bionerstream.records.Records.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bionerstream.avro.Abstract;
import dev.bionerstream.kafka.AvroBytes;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InputRecordDecoderHostileInputTest {
    final InputRecordDecoder json = new InputRecordDecoder(InputFormat.JSON);
    final InputRecordDecoder avro = new InputRecordDecoder(InputFormat.AVRO);

    @Test
    void aByteOrderMarkBeforeJsonIsSkipped() throws Exception {
        assertThat(json.parse(concat(bytes(0xEF, 0xBB, 0xBF), utf8("{\"id\": \"1\", \"title\": \"Aspirin\"}")))
                        .getTitle())
                .isEqualTo("Aspirin");
    }

    @Test
    void jsonMustBeStrictUtf8() {
        byte[] invalid = concat(utf8("{\"id\": \"1\", \"title\": \"a"), bytes(0xFF), utf8("\"}"));
        assertThatThrownBy(() -> json.parse(invalid))
                .hasMessageContaining("not valid UTF-8")
                .hasMessageContaining("byte 23");
        byte[] overlongSlash = concat(utf8("{\"id\": \"1\", \"title\": \"a"), bytes(0xC0, 0xAF), utf8("\"}"));
        assertThatThrownBy(() -> json.parse(overlongSlash)).hasMessageContaining("not valid UTF-8");
        byte[] encodedSurrogate = concat(utf8("{\"id\": \"1\", \"title\": \"a"), bytes(0xED, 0xA0, 0x80), utf8("\"}"));
        assertThatThrownBy(() -> json.parse(encodedSurrogate)).hasMessageContaining("not valid UTF-8");
        String record = "{\"id\": \"1\", \"title\": \"Aspirin\"}";
        assertThatThrownBy(() -> json.parse(record.getBytes(StandardCharsets.UTF_16LE)))
                .hasMessageContaining("not UTF-8");
        assertThatThrownBy(() -> json.parse(record.getBytes(StandardCharsets.UTF_16)))
                .hasMessageContaining("not UTF-8");
    }

    @Test
    void anIdIsAStringOrAnInteger() throws Exception {
        assertThat(json.parse(utf8("{\"id\": 123456789012345678901234567890, \"title\": \"t\"}"))
                        .getId())
                .isEqualTo("123456789012345678901234567890");
        for (String id : new String[] {"{\"a\": 1}", "[1]", "true", "1.5"}) {
            assertThatThrownBy(() -> json.parse(utf8("{\"id\": " + id + ", \"title\": \"t\"}")))
                    .as(id)
                    .hasMessageContaining("field 'id' must be a string or an integer");
        }
    }

    @Test
    void anIdFitsAKeyAndAnIndexTerm() throws Exception {
        assertThat(json.parse(utf8("{\"id\": \"" + "é".repeat(256) + "\", \"title\": \"t\"}"))
                        .getId())
                .hasSize(256);
        assertThatThrownBy(() -> json.parse(utf8("{\"id\": \"" + "é".repeat(257) + "\", \"title\": \"t\"}")))
                .hasMessageContaining("field 'id' has 514 UTF-8 bytes, more than 512");
        assertThatThrownBy(() -> json.parse(utf8("{\"id\": \"a\\u0000b\", \"title\": \"t\"}")))
                .hasMessageContaining("field 'id' contains a control character");
        assertThatThrownBy(() -> json.parse(utf8("{\"id\": \"a\\ud800\", \"title\": \"t\"}")))
                .hasMessageContaining("field 'id' contains an unpaired surrogate");
    }

    @Test
    void duplicateKeysAreRefused() {
        assertThatThrownBy(() -> json.parse(utf8("{\"id\": \"1\", \"id\": \"2\", \"title\": \"t\"}")))
                .hasMessageContaining("Duplicate field 'id'");
    }

    @Test
    void theAbstractHasOneKey() throws Exception {
        assertThat(json.parse(utf8("{\"id\": \"1\", \"abstractText\": \"Text.\"}"))
                        .getAbstractText())
                .isEqualTo("Text.");
        assertThat(json.parse(utf8("{\"id\": \"1\", \"abstract\": \"Text.\", \"abstractText\": null}"))
                        .getAbstractText())
                .isEqualTo("Text.");
        assertThatThrownBy(() -> json.parse(utf8("{\"id\": \"1\", \"abstract\": \"A.\", \"abstractText\": \"B.\"}")))
                .hasMessageContaining("both 'abstract' and 'abstractText'");
    }

    @Test
    void metadataFieldsAreBounded() {
        String journal = "J".repeat(InputRecordDecoder.MAX_METADATA_CHARS + 1);
        assertThatThrownBy(
                        () -> json.parse(utf8("{\"id\": \"1\", \"title\": \"t\", \"journal\": \"" + journal + "\"}")))
                .hasMessageContaining("field 'journal' has 1001 chars, more than 1000");
    }

    @Test
    void aHugeAvroLengthPrefixAllocatesNothingHuge() {
        byte[] hostile = avro(e -> {
            e.writeString("1");
            e.writeIndex(1);
            e.writeLong(Integer.MAX_VALUE - 16);
            e.writeFixed(utf8("Aspirin"));
        });
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        assertThatThrownBy(() -> avro.parse(hostile))
                .isInstanceOf(InvalidRecordException.class)
                .hasMessageContaining("not a binary Avro Abstract");
        assertThat(threads.getCurrentThreadAllocatedBytes() - before).isLessThan(50_000_000L);
    }

    @Test
    void bytesAfterTheAvroRecordAreRefused() {
        byte[] record = AvroBytes.of(
                Abstract.newBuilder().setId("1").setTitle("Aspirin").build());
        assertThatThrownBy(() -> avro.parse(concat(record, bytes(0)))).hasMessageContaining("bytes after the record");
    }

    @Test
    void avroOfAnotherSchemaVersionIsADeadLetter() {
        byte[] older = avroOfSchema(
                "[{\"name\": \"id\", \"type\": \"string\"}, {\"name\": \"title\", \"type\": [\"null\", \"string\"]}]",
                Map.of("id", "1", "title", "Aspirin"));
        assertThatThrownBy(() -> avro.parse(older))
                .hasMessageContaining("not a binary Avro Abstract")
                .hasMessageContaining("ends too early");
        String newerFields = "[{\"name\": \"id\", \"type\": \"string\"}"
                + ", {\"name\": \"title\", \"type\": [\"null\", \"string\"]}, {\"name\": \"abstractText\", \"type\": [\"null\", \"string\"]}"
                + ", {\"name\": \"journal\", \"type\": [\"null\", \"string\"]}, {\"name\": \"publicationDate\", \"type\": [\"null\", \"string\"]}"
                + ", {\"name\": \"source\", \"type\": [\"null\", \"string\"]}, {\"name\": \"language\", \"type\": [\"null\", \"string\"]}"
                + ", {\"name\": \"revised\", \"type\": [\"null\", \"string\"]}"
                + ", {\"name\": \"doi\", \"type\": [\"null\", \"string\"]}]";
        byte[] newer = avroOfSchema(newerFields, Map.of("id", "1", "title", "Aspirin", "doi", "10.1/x"));
        assertThatThrownBy(() -> avro.parse(newer)).hasMessageContaining("bytes after the record");
    }

    @Test
    void avroStringsMustBeStrictUtf8() {
        byte[] record = avro(e -> {
            e.writeString("1");
            e.writeIndex(1);
            e.writeBytes(bytes('a', 0xED, 0xA0, 0x80));
            for (int i = 0; i < 6; i++) {
                e.writeIndex(0);
            }
        });
        assertThatThrownBy(() -> avro.parse(record)).hasMessageContaining("not valid UTF-8");
    }
}
