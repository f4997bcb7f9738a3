package dev.bionerstream.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.bionerstream.avro.ConceptLink;
import dev.bionerstream.avro.DeadLetter;
import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.avro.EntityEvent;
import dev.bionerstream.avro.Mention;
import dev.bionerstream.avro.TextField;
import dev.bionerstream.records.InvalidRecordException;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.stream.StreamSupport;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;
import org.apache.avro.specific.SpecificRecordBase;
import org.apache.flink.connector.kafka.lineage.TypeDatasetFacetProvider;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.formats.avro.typeutils.AvroTypeInfo;
import org.junit.jupiter.api.Test;

/**
 * {@code kafka.output-format json}: each output record as a plain JSON object that its schema in
 * {@code schemas/json/} accepts, holding what the Avro value holds, and those schemas list exactly the
 * fields of the {@code .avsc}.
 */
class OutputFormatTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Microseconds, as Instant.now() gives them: both formats keep milliseconds. */
    private static final Instant NOW = Instant.parse("2026-11-26T09:30:00.123456Z");

    private static final byte[] NOT_UTF8 = {'{', '"', 'i', 'd', (byte) 0xC3, 0x28, (byte) 0xFF};

    static EntityEvent event() {
        return EntityEvent.newBuilder()
                .setEventId("b8175a1881a177222aee0a8f9ba7df67b1036c212c1c64baaa610323240f7715")
                .setDocumentId("demo-0001")
                .setEntityType("chemical")
                .setText("Naloxone")
                .setStart(0)
                .setEnd(8)
                .setField(TextField.TITLE)
                .setSentenceIndex(0)
                .setScore(0.9996)
                .setModelName("bioner-mrc-bge-small")
                .setModelVersion("2.1.0-int8")
                .setQueryId("chemical@96a733e2")
                .setProcessingTime(NOW)
                .setConceptId("mesh:D009270")
                .setConceptName("Naloxone")
                .setLinkScore(1.0)
                .setVocabulary("bioner-vocab-chemical:2024.1")
                .build();
    }

    static DocumentEntities document() {
        Mention m = Mention.newBuilder()
                .setEventId("0f".repeat(32))
                .setEntityType("species")
                .setText("mice 🐁")
                .setStart(62)
                .setEnd(68)
                .setField(TextField.ABSTRACT)
                .setSentenceIndex(1)
                .setScore(1.0)
                .setQueryId("species@0123abcd")
                .build();
        ConceptLink mouse = new ConceptLink("ncbitaxon:10090", "Mus musculus", 0.97, "bioner-vocab-species:2024.1");
        return DocumentEntities.newBuilder()
                .setEventId("ab".repeat(32))
                .setDocumentId("demo-0002")
                .setAbstractText("Lithium was given. It induced seizures in mice 🐁.")
                .setSource("pubmed")
                .setModelName("bioner-mrc-bge-small")
                .setModelVersion("2.1.0-int8")
                .setSentences(2)
                .setProcessingTime(NOW)
                .setEntities(List.of(m, m))
                .setLinks(List.of(mouse, new ConceptLink(null, null, 0.42, "bioner-vocab-species:2024.1")))
                .build();
    }

    static List<SpecificRecord> records() {
        return List.of(
                event(),
                document(),
                DeadLetters.of(
                        NOT_UTF8, "abstracts", 3, 42L, DeadLetters.PARSE, new InvalidRecordException("not UTF-8")),
                DeadLetters.of(null, "pubmed26n0001.xml", -1, 7L, "ingest", new IllegalStateException("bad file")));
    }

    @Test
    void jsonValuesAreWhatTheirSchemasDescribe() {
        for (SpecificRecord r : records()) {
            JsonNode json = OutputSchemas.assertValid(name(r), OutputFormat.JSON.bytes(r));
            assertThat(fieldNames(json))
                    .as("the .avsc's fields in its order")
                    .containsExactlyElementsOf(avscFields(r.getSchema()));
        }
    }

    @Test
    void theSchemasRefuseAMissingOrMisspelledFieldAndAWrongType() throws IOException {
        ObjectNode event = (ObjectNode) OutputSchemas.assertValid("EntityEvent", OutputFormat.JSON.bytes(event()));
        for (ObjectNode changed : List.of(
                ((ObjectNode) event.deepCopy().without("eventId"))
                        .put("eventID", event.get("eventId").textValue()),
                (ObjectNode) event.deepCopy().without("score"),
                event.deepCopy().put("linkScore", "1.0"),
                event.deepCopy().put("start", "0"),
                event.deepCopy().put("field", "BODY"))) {
            assertThatThrownBy(() -> OutputSchemas.assertValid("EntityEvent", JSON.writeValueAsBytes(changed)))
                    .as(changed.toString())
                    .isInstanceOf(AssertionError.class);
        }
    }

    @Test
    void theKafkaSinksReadTheTypeOfTheirValuesForLineageWithoutExtractingIt() {
        // extracting it from a generic schema class fails: an InvalidTypesException in the JobManager's log per sink
        for (OutputFormat format : OutputFormat.values()) {
            for (Class<? extends SpecificRecordBase> type :
                    List.of(EntityEvent.class, DocumentEntities.class, DeadLetter.class)) {
                assertThat(((TypeDatasetFacetProvider) records(format, type)).getTypeDatasetFacet())
                        .as(format + " " + type.getSimpleName())
                        .hasValueSatisfying(
                                f -> assertThat(f.getTypeInformation()).isEqualTo(new AvroTypeInfo<>(type)));
            }
        }
    }

    private static <T extends SpecificRecordBase> KafkaRecordSerializationSchema<T> records(
            OutputFormat format, Class<T> type) {
        return KafkaRecordSerializationSchema.<T>builder()
                .setTopic("entities")
                .setValueSerializationSchema(format.serializer(type))
                .build();
    }

    @Test
    void jsonHoldsWhatAvroHolds() throws IOException {
        for (SpecificRecord r : records()) {
            assertThat(readBack(OutputFormat.JSON, r)).as(name(r)).isEqualTo(readBack(OutputFormat.AVRO, r));
        }
    }

    @Test
    void valuesArePlainJsonNotAvrosUnionEncoding() {
        JsonNode doc = OutputSchemas.assertValid("DocumentEntities", OutputFormat.JSON.bytes(document()));
        assertThat(doc.get("title").isNull()).isTrue();
        assertThat(doc.get("abstractText").textValue()).endsWith("mice 🐁.");
        assertThat(doc.get("processingTime").longValue()).isEqualTo(NOW.toEpochMilli());
        assertThat(doc.at("/entities/1/field").textValue()).isEqualTo("ABSTRACT");

        SpecificRecord letter = records().get(2);
        JsonNode dead = OutputSchemas.assertValid("DeadLetter", OutputFormat.JSON.bytes(letter));
        assertThat(Base64.getDecoder().decode(dead.get("originalBytes").textValue()))
                .as("the refused bytes, exactly")
                .isEqualTo(NOT_UTF8);
        assertThat(dead.get("offset").longValue()).isEqualTo(42L);
    }

    @Test
    void theJsonSchemasListTheAvscFieldsAndTheirNullability() {
        for (SpecificRecord r : records().subList(0, 3)) {
            assertSameFields(r.getSchema(), OutputSchemas.tree(name(r)));
        }
        assertSameFields(
                Mention.getClassSchema(), OutputSchemas.tree("DocumentEntities").at("/$defs/Mention"));
        assertSameFields(
                ConceptLink.getClassSchema(),
                OutputSchemas.tree("DocumentEntities").at("/$defs/ConceptLink"));
    }

    private static void assertSameFields(Schema avro, JsonNode json) {
        List<String> fields = avscFields(avro);
        assertThat(fieldNames(json.get("properties"))).as(avro.getName()).containsExactlyElementsOf(fields);
        assertThat(json.get("required"))
                .extracting(JsonNode::textValue)
                .as(avro.getName() + ": every field is written, null or not; those added later are optional, "
                        + "absent from an older release's values")
                .containsExactlyElementsOf(fields.stream()
                        .filter(f -> !SchemaEvolutionTest.addedWithLinking(avro.getName(), f))
                        .toList());
        assertThat(json.get("additionalProperties").booleanValue())
                .as(avro.getName() + ": a later release's fields are allowed")
                .isTrue();
        for (Schema.Field f : avro.getFields()) {
            boolean nullable = f.schema().isNullable();
            JsonNode type = json.at("/properties/" + f.name() + "/type");
            assertThat(type.isArray()
                            && StreamSupport.stream(type.spliterator(), false)
                                    .anyMatch(t -> t.textValue().equals("null")))
                    .as(avro.getName() + "." + f.name() + " nullable")
                    .isEqualTo(nullable);
        }
    }

    private static SpecificRecord readBack(OutputFormat format, SpecificRecord r) throws IOException {
        @SuppressWarnings("unchecked")
        Class<SpecificRecord> type = (Class<SpecificRecord>) r.getClass();
        return format.reader(type).read(format.bytes(r));
    }

    private static String name(SpecificRecord r) {
        return r.getSchema().getName();
    }

    private static List<String> avscFields(Schema schema) {
        return schema.getFields().stream().map(Schema.Field::name).toList();
    }

    private static List<String> fieldNames(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
