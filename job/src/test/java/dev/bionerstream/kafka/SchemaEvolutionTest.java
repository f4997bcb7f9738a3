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
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

/**
 * Consumers built on the release before linking (its schemas in {@code schemas-before-linking/}) and
 * today's read each other's values as the topics carry them: binary Avro without the writer's
 * schema, so a consumer decodes with the schema it was built on; and JSON.
 */
class SchemaEvolutionTest {
    /** The fields linking added, optional in JSON (absent from the earlier release's values), by record. */
    private static final Map<String, List<String>> ADDED_WITH_LINKING = Map.of(
            "EntityEvent", List.of("conceptId", "conceptName", "linkScore", "vocabulary"),
            "DocumentEntities", List.of("links"));

    private static final ObjectMapper JSON = new ObjectMapper();

    static boolean addedWithLinking(String record, String field) {
        return ADDED_WITH_LINKING.getOrDefault(record, List.of()).contains(field);
    }

    @Test
    void todaysSchemasOnlyAppendFieldsWithDefaultsToTheEarlierOnes() throws IOException {
        for (SpecificRecord r : List.of(OutputFormatTest.event(), OutputFormatTest.document())) {
            Schema today = r.getSchema();
            Schema before = EarlierSchemas.of(today.getName());
            assertThat(compatibility(today, before))
                    .as(today.getName() + ": today's reader, earlier writer")
                    .isEqualTo(SchemaCompatibilityType.COMPATIBLE);
            assertThat(compatibility(before, today))
                    .as(today.getName() + ": earlier reader, today's writer")
                    .isEqualTo(SchemaCompatibilityType.COMPATIBLE);
            assertThat(today.getFields().subList(0, before.getFields().size()).toString())
                    .as(today.getName() + ": the earlier fields first, unchanged (binary Avro is positional)")
                    .isEqualTo(before.getFields().toString());
        }
    }

    @Test
    void aConsumerOfTheEarlierReleaseDecodesTodaysBytesWithItsOwnSchema() throws IOException {
        for (SpecificRecord r : List.of(OutputFormatTest.event(), OutputFormatTest.document())) {
            Schema before = EarlierSchemas.of(r.getSchema().getName());
            // what that consumer does: today's bytes, its schema as both the writer's and the reader's
            GenericRecord read = new GenericDatumReader<GenericRecord>(before)
                    .read(null, DecoderFactory.get().binaryDecoder(AvroBytes.of(r), null));
            for (Schema.Field f : before.getFields()) {
                assertThat(String.valueOf(read.get(f.name())))
                        .as(r.getSchema().getName() + "." + f.name())
                        .isEqualTo(String.valueOf(asEarlier(r).get(f.name())));
            }
        }
    }

    @Test
    void todaysReaderDecodesTheEarlierReleasesBytesWithoutLinks() throws IOException {
        EntityEvent event =
                OutputFormat.AVRO.reader(EntityEvent.class).read(write(asEarlier(OutputFormatTest.event())));
        assertThat(event)
                .isEqualTo(EntityEvent.newBuilder(OutputFormatTest.event())
                        .setConceptId(null)
                        .setConceptName(null)
                        .setLinkScore(null)
                        .setVocabulary(null)
                        .build());
        DocumentEntities document =
                OutputFormat.AVRO.reader(DocumentEntities.class).read(write(asEarlier(OutputFormatTest.document())));
        assertThat(document)
                .isEqualTo(DocumentEntities.newBuilder(OutputFormatTest.document())
                        .setLinks(List.of())
                        .build());
    }

    @Test
    void jsonValuesOfEitherReleaseAndOfALaterOneAreValidAndReadToday() throws IOException {
        for (SpecificRecord r : List.of(OutputFormatTest.event(), OutputFormatTest.document())) {
            String name = r.getSchema().getName();
            byte[] linked = OutputFormat.JSON.bytes(r);
            ObjectNode earlier = (ObjectNode) JSON.readTree(linked);
            earlier.remove(ADDED_WITH_LINKING.get(name));
            ObjectNode later = ((ObjectNode) JSON.readTree(linked)).put("fieldOfALaterRelease", 1);
            for (JsonNode value : List.of(JSON.readTree(linked), earlier, later)) {
                byte[] bytes = JSON.writeValueAsBytes(value);
                OutputSchemas.assertValid(name, bytes);
                SpecificRecord read = OutputFormat.JSON.reader(r.getClass()).read(bytes);
                assertThat(read.get(r.getSchema().getField("eventId").pos())).isEqualTo(r.get(0));
            }
        }
    }

    @Test
    void theEarlierJsonSchemaWasClosedSoAStrictValidatorOfItRefusesOnlyTheLinkFields() throws IOException {
        // documented in docs/topics-and-schemas.md: such a validator takes today's schema, whose content model is open
        List<Error> errors = OutputSchemas.errors(
                Path.of("src/test/resources/schemas-before-linking/json/EntityEvent.schema.json"),
                JSON.readTree(OutputFormat.JSON.bytes(OutputFormatTest.event())));
        assertThat(errors).isNotEmpty();
        assertThat(errors).allSatisfy(e -> assertThat(ADDED_WITH_LINKING.get("EntityEvent"))
                .anyMatch(f -> e.toString().contains(f)));
    }

    private static SchemaCompatibilityType compatibility(Schema reader, Schema writer) {
        return SchemaCompatibility.checkReaderWriterCompatibility(reader, writer)
                .getType();
    }

    /** The record as the earlier release would have written it: today's, resolved to the earlier schema. */
    private static GenericRecord asEarlier(SpecificRecord record) throws IOException {
        return new GenericDatumReader<GenericRecord>(
                        record.getSchema(), EarlierSchemas.of(record.getSchema().getName()))
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
