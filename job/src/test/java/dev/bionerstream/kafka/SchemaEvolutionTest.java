package dev.bionerstream.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.avro.EntityEvent;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

/**
 * Consumers built on the release before linking (its schemas kept in {@code
 * src/test/resources/schemas-before-linking}) and today's read each other's values: Avro both ways
 * by schema resolution, JSON by the optional link fields and today's open content model.
 */
class SchemaEvolutionTest {
    /** The fields linking added to EntityEvent and DocumentEntities' Mention, optional with default null. */
    static final List<String> ADDED_WITH_LINKING = List.of("conceptId", "conceptName", "linkScore", "vocabulary");

    private static final String BEFORE = "/schemas-before-linking/";
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void eachSchemaReadsTheOthersAvroValues() throws IOException {
        for (Schema today : List.of(EntityEvent.getClassSchema(), DocumentEntities.getClassSchema())) {
            Schema before = before(today.getName());
            assertThat(compatibility(today, before))
                    .as(today.getName() + ": today's reader, earlier writer")
                    .isEqualTo(SchemaCompatibilityType.COMPATIBLE);
            assertThat(compatibility(before, today))
                    .as(today.getName() + ": earlier reader, today's writer")
                    .isEqualTo(SchemaCompatibilityType.COMPATIBLE);
        }
    }

    @Test
    void aConsumerOfTheEarlierReleaseReadsTodaysLinkedEventsWithoutTheirLinks() throws IOException {
        EntityEvent event = OutputFormatTest.event();
        GenericRecord read = readAsBefore(event);
        assertThat(read.getSchema().getField("conceptId")).isNull();
        assertThat(read.get("eventId").toString()).isEqualTo(event.getEventId());
        assertThat(read.get("text").toString()).isEqualTo("Naloxone");

        DocumentEntities document = OutputFormatTest.document();
        GenericRecord doc = readAsBefore(document);
        GenericRecord mention = (GenericRecord) ((List<?>) doc.get("entities")).get(0);
        assertThat(mention.getSchema().getField("conceptId")).isNull();
        assertThat(mention.get("text").toString()).isEqualTo("mice 🐁");
    }

    @Test
    void todaysConsumerReadsTheEarlierReleasesEventsWithNullLinks() throws IOException {
        EntityEvent event = OutputFormatTest.event();
        byte[] earlier = write(readAsBefore(event));
        EntityEvent read = new SpecificDatumReader<EntityEvent>(before("EntityEvent"), EntityEvent.getClassSchema())
                .read(null, DecoderFactory.get().binaryDecoder(earlier, null));
        assertThat(read.getConceptId()).isNull();
        assertThat(read.getLinkScore()).isNull();
        assertThat(read.getVocabulary()).isNull();
        assertThat(read)
                .isEqualTo(EntityEvent.newBuilder(event)
                        .setConceptId(null)
                        .setConceptName(null)
                        .setLinkScore(null)
                        .setVocabulary(null)
                        .build());
    }

    @Test
    void jsonValuesOfEitherReleaseAndOfALaterOneAreValidAndReadToday() throws IOException {
        byte[] linked = OutputFormat.JSON.bytes(OutputFormatTest.event());
        ObjectNode earlier = (ObjectNode) JSON.readTree(linked);
        earlier.remove(ADDED_WITH_LINKING);
        ObjectNode later = ((ObjectNode) JSON.readTree(linked)).put("fieldOfALaterRelease", 1);
        for (JsonNode value : List.of(JSON.readTree(linked), earlier, later)) {
            byte[] bytes = JSON.writeValueAsBytes(value);
            OutputSchemas.assertValid("EntityEvent", bytes);
            EntityEvent read = OutputFormat.JSON.reader(EntityEvent.class).read(bytes);
            assertThat(read.getText()).isEqualTo("Naloxone");
            assertThat(read.getConceptId()).isEqualTo(value == earlier ? null : "mesh:D009270");
        }
    }

    @Test
    void theEarlierJsonSchemaWasClosedSoAStrictValidatorOfItRefusesOnlyTheLinkFields() throws IOException {
        // documented in docs/topics-and-schemas.md: such a validator takes today's schema, whose content model is open
        List<Error> errors = OutputSchemas.errors(
                Path.of("src/test/resources" + BEFORE + "json/EntityEvent.schema.json"),
                JSON.readTree(OutputFormat.JSON.bytes(OutputFormatTest.event())));
        assertThat(errors).isNotEmpty();
        assertThat(errors).allSatisfy(e -> assertThat(ADDED_WITH_LINKING)
                .anyMatch(f -> e.toString().contains(f)));
    }

    private static SchemaCompatibilityType compatibility(Schema reader, Schema writer) {
        return SchemaCompatibility.checkReaderWriterCompatibility(reader, writer)
                .getType();
    }

    /** The earlier schema of {@code name}; DocumentEntities' uses the TextField that EntityEvent's defines. */
    private static Schema before(String name) throws IOException {
        Schema.Parser parser = new Schema.Parser();
        Schema schema = null;
        for (String file : List.of("EntityEvent", "DocumentEntities")) {
            try (InputStream in = SchemaEvolutionTest.class.getResourceAsStream(BEFORE + file + ".avsc")) {
                Schema parsed = parser.parse(in);
                schema = file.equals(name) ? parsed : schema;
            }
        }
        return schema;
    }

    private static GenericRecord readAsBefore(SpecificRecord record) throws IOException {
        return new GenericDatumReader<GenericRecord>(
                        record.getSchema(), before(record.getSchema().getName()))
                .read(null, DecoderFactory.get().binaryDecoder(AvroBytes.of(record), null));
    }

    private static byte[] write(GenericRecord record) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(record.getSchema()).write(record, encoder);
        encoder.flush();
        return out.toByteArray();
    }
}
