package dev.bionerstream.sink.opensearch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.avro.Mention;
import dev.bionerstream.avro.TextField;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

class DocumentJsonConverterTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void documentCarriesTextFieldsModelAndMentions() {
        ObjectNode doc = DocumentJsonConverter.toDocument(sample("2024-03-05"));

        assertThat(doc.get("eventId").asText()).isEqualTo("e-1");
        assertThat(doc.get("documentId").asText()).isEqualTo("PMID:38000001");
        assertThat(doc.get("title").asText()).startsWith("Cisplatin nephrotoxicity");
        assertThat(doc.get("abstract").asText()).contains("BRCA1");
        assertThat(doc.get("journal").asText()).isEqualTo("J Clin Oncol");
        assertThat(doc.get("modelName").asText()).isEqualTo("bioner-mrc");
        assertThat(doc.get("modelVersion").asText()).isEqualTo("1.2.0");
        assertThat(doc.get("processingTime").asText()).isEqualTo("2026-11-21T10:15:30.123Z");
        assertThat(doc.get("mentionCount").asInt()).isEqualTo(5);
        assertThat(doc.get("entities")).hasSize(5);
        JsonNode first = doc.get("entities").get(0);
        assertThat(first.get("type").asText()).isEqualTo("chemical");
        assertThat(first.get("text").asText()).isEqualTo("Cisplatin");
        assertThat(first.get("start").asInt()).isZero();
        assertThat(first.get("end").asInt()).isEqualTo(9);
        assertThat(first.get("field").asText()).isEqualTo("TITLE");
        assertThat(first.get("queryId").asText()).isEqualTo("chemical-0a1b2c3d");
    }

    @Test
    void keywordArraysAreLowerCasedDistinctAndAlwaysPresent() {
        ObjectNode doc = DocumentJsonConverter.toDocument(sample("2024-03-05"));

        assertThat(texts(doc, "chemicals")).containsExactly("cisplatin");
        assertThat(texts(doc, "diseases")).containsExactly("nephrotoxicity");
        assertThat(texts(doc, "genes")).containsExactly("brca1");
        assertThat(texts(doc, "species")).isEmpty();
        assertThat(texts(doc, "entityTypes")).containsExactly("chemical", "disease", "gene", "cell_line");
    }

    @Test
    void publicationDateIsADateOnlyWhenItParses() {
        assertThat(DocumentJsonConverter.isoDate("2024-03-05")).contains("2024-03-05");
        assertThat(DocumentJsonConverter.isoDate("2024-03")).contains("2024-03");
        assertThat(DocumentJsonConverter.isoDate("2024")).contains("2024");
        assertThat(DocumentJsonConverter.isoDate("2024-02-30")).isEmpty();
        assertThat(DocumentJsonConverter.isoDate("2024 Spring")).isEmpty();

        ObjectNode unparsed = DocumentJsonConverter.toDocument(sample("2024 Spring"));
        assertThat(unparsed.has("publicationDate")).isFalse();
        assertThat(unparsed.get("publicationDateText").asText()).isEqualTo("2024 Spring");
    }

    @Test
    void absentOptionalFieldsAreLeftOut() {
        DocumentEntities d = sample(null);
        d.setTitle(null);
        d.setJournal(null);
        ObjectNode doc = DocumentJsonConverter.toDocument(d);
        assertThat(doc.has("title")).isFalse();
        assertThat(doc.has("journal")).isFalse();
        assertThat(doc.has("publicationDate")).isFalse();
        assertThat(doc.has("publicationDateText")).isFalse();
    }

    @Test
    void elementConverterKeysTheDocumentByEventId() throws Exception {
        IndexRequestEntry entry = new DocumentJsonConverter().apply(sample("2024"), null);
        assertThat(entry.id()).isEqualTo("e-1");
        assertThat(JSON.readTree(entry.source()).get("eventId").asText()).isEqualTo("e-1");
    }

    /** The index is "dynamic": "strict", so a field the mapping lacks would be rejected at indexing time. */
    @Test
    void everyFieldTheConverterWritesIsInTheMapping() throws Exception {
        JsonNode mapping = JSON.readTree(IndexSetup.mappingJson()).get("mappings");
        assertThat(mapping.get("dynamic").asText()).isEqualTo("strict");
        for (DocumentEntities d : TestDocuments.generate(20, 7)) {
            assertFieldsMapped(DocumentJsonConverter.toDocument(d), mapping.get("properties"), "");
        }
        assertFieldsMapped(DocumentJsonConverter.toDocument(sample("2024 Spring")), mapping.get("properties"), "");
    }

    @Test
    void mappingHasKeywordPerEntityTypeTextForProseAndNestedMentions() throws Exception {
        JsonNode p = JSON.readTree(IndexSetup.mappingJson()).get("mappings").get("properties");
        for (String field : DocumentJsonConverter.TYPE_FIELDS.values()) {
            assertThat(p.get(field).get("type").asText()).as(field).isEqualTo("keyword");
        }
        assertThat(p.get("title").get("type").asText()).isEqualTo("text");
        assertThat(p.get("abstract").get("type").asText()).isEqualTo("text");
        for (String field : List.of("modelName", "modelVersion", "documentId", "journal", "eventId")) {
            assertThat(p.get(field).get("type").asText()).as(field).isEqualTo("keyword");
        }
        assertThat(p.get("publicationDate").get("type").asText()).isEqualTo("date");
        assertThat(p.get("processingTime").get("type").asText()).isEqualTo("date");
        assertThat(p.get("entities").get("type").asText()).isEqualTo("nested");
        assertThat(p.get("entities").get("properties").get("start").get("type").asText())
                .isEqualTo("integer");
    }

    private static void assertFieldsMapped(JsonNode doc, JsonNode properties, String path) {
        Iterator<String> names = doc.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            assertThat(properties.has(name)).as("mapping has " + path + name).isTrue();
            JsonNode value = doc.get(name);
            if (value.isArray() && value.size() > 0 && value.get(0).isObject()) {
                value.forEach(v -> assertFieldsMapped(v, properties.get(name).get("properties"), path + name + "."));
            }
        }
    }

    private static List<String> texts(JsonNode doc, String field) {
        List<String> out = new ArrayList<>();
        doc.get(field).forEach(n -> out.add(n.asText()));
        return out;
    }

    static DocumentEntities sample(String publicationDate) {
        String title = "Cisplatin nephrotoxicity in BRCA1 carriers";
        List<Mention> mentions = List.of(
                mention("chemical", "Cisplatin", TextField.TITLE, 0),
                mention("disease", "nephrotoxicity", TextField.TITLE, 10),
                mention("gene", "BRCA1", TextField.TITLE, 28),
                mention("Chemical", "cisplatin", TextField.ABSTRACT, 40),
                mention("cell_line", "HEK293", TextField.ABSTRACT, 80));
        return DocumentEntities.newBuilder()
                .setEventId("e-1")
                .setDocumentId("PMID:38000001")
                .setTitle(title)
                .setAbstractText("Renal injury after cisplatin was more frequent in BRCA1 carriers; HEK293 cells ...")
                .setJournal("J Clin Oncol")
                .setPublicationDate(publicationDate)
                .setSource("pubmed-updatefiles")
                .setModelName("bioner-mrc")
                .setModelVersion("1.2.0")
                .setSentences(3)
                .setProcessingTime(Instant.parse("2026-11-21T10:15:30.123Z"))
                .setEntities(new ArrayList<>(mentions))
                .build();
    }

    private static Mention mention(String type, String text, TextField field, int start) {
        return Mention.newBuilder()
                .setEventId("m-" + type + "-" + start)
                .setEntityType(type)
                .setText(text)
                .setStart(start)
                .setEnd(start + text.length())
                .setField(field)
                .setSentenceIndex(0)
                .setScore(0.97)
                .setQueryId(type.toLowerCase() + "-0a1b2c3d")
                .build();
    }
}
