package dev.bionerstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.avro.ConceptLink;
import dev.bionerstream.avro.DeadLetter;
import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.avro.Mention;
import dev.bionerstream.avro.TextField;
import dev.bionerstream.kafka.DeadLetters;
import dev.bionerstream.records.InvalidRecordException;
import dev.bionerstream.serving.BundleChoice;
import dev.bionerstream.serving.ModelRoutes;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

/**
 * The demo's summary names each model with the languages it reads and lists each model's own
 * types under it, found or not: the English model's four, the Spanish model's three. The models
 * are the demo's (the jar's bundle and the repository's Spanish bundle; their manifests only).
 */
class DemoSummaryTest {
    private static final List<DemoSummary.Model> MODELS = DemoSummary.models(
            ModelRoutes.from(
                    Configuration.fromMap(Map.of(
                            "model.bundle",
                            BundleChoice.BUNDLE_IN_JAR,
                            "model.language-bundles",
                            "spa=../" + BundleChoice.SPANISH)),
                    BundleChoice.NO_INSTALLATION),
            true);

    @Test
    void namesTheModelsWithTheirLanguagesAndTypes() {
        assertThat(MODELS).hasSize(2);
        assertThat(MODELS.get(0).languages()).isEqualTo("English and every language without a model of its own");
        assertThat(MODELS.get(0).types()).containsExactly("chemical", "disease", "gene", "species");
        assertThat(MODELS.get(1).languages()).isEqualTo("Spanish (spa)");
        assertThat(MODELS.get(1).types()).containsExactly("normalizable", "non-normalizable", "protein");
    }

    @Test
    void groupsEntitiesByModelEachWithAllItsTypes() {
        String english = MODELS.get(0).id();
        String spanish = MODELS.get(1).id();
        List<DocumentEntities> docs = List.of(
                doc("en-1", english, "chemical", "dobutamine", "disease", "cardiomyopathy", "species", "patient"),
                doc("es-1", spanish, "normalizable", "cisplatino", "protein", "PSA", "normalizable", "paracetamol"),
                doc("en-2", english, "chemical", "lithium"));

        List<String> lines =
                DemoSummary.of(MODELS, docs, List.of(), 2.0).lines().toList();

        assertThat(lines).contains("abstracts 3, sentences 3, entities 7, dead letters 0");
        int en = lines.indexOf("model " + english + ", for English and every language without a model of its own: "
                + "2 documents, 4 entities");
        int es = lines.indexOf("model " + spanish + ", for Spanish (spa): 1 documents, 3 entities");
        assertThat(en).as(String.join("\n", lines)).isNotNegative();
        assertThat(es).as(String.join("\n", lines)).isEqualTo(en + 5);
        assertThat(lines.subList(en + 1, es))
                .containsExactly("  chemical      2", "  disease       1", "  gene          0", "  species       1");
        assertThat(lines.subList(es + 1, es + 4))
                .containsExactly("  normalizable          2", "  non-normalizable      0", "  protein               1");
        assertThat(lines.subList(lines.indexOf("examples:") + 1, lines.indexOf("examples:") + 6))
                .as("one example of each model's types first, the model named")
                .allMatch(l -> l.endsWith(english) || l.endsWith(spanish))
                .anyMatch(l -> l.contains("\"patient\""))
                .anyMatch(l -> l.contains("\"PSA\""));
    }

    @Test
    void listsEachTypesMostMentionedConceptsWithTheirSurfaceForms() {
        String english = MODELS.get(0).id();
        DocumentEntities d = linked(
                doc(
                        "en-1",
                        english,
                        "chemical",
                        "acetaminophen",
                        "chemical",
                        "Paracetamol",
                        "chemical",
                        "paracetamol",
                        "chemical",
                        "lithium",
                        "species",
                        "patients"),
                "mesh:D000082 Acetaminophen",
                "mesh:D000082 Acetaminophen",
                "mesh:D000082 Acetaminophen",
                "mesh:D008094 Lithium",
                "ncbitaxon:9606 Homo sapiens");

        List<String> lines =
                DemoSummary.of(MODELS, List.of(d), List.of(), 1.0).lines().toList();

        int chemical = lines.indexOf("  chemical      4");
        assertThat(chemical).as(String.join("\n", lines)).isNotNegative();
        assertThat(lines.subList(chemical + 1, chemical + 3))
                .as("the most mentioned first; the texts counted case-insensitively")
                .containsExactly(
                        "    mesh:D000082 Acetaminophen: 3 mentions, 2 surface forms",
                        "    mesh:D008094 Lithium: 1 mentions, 1 surface forms");
        assertThat(lines).contains("    ncbitaxon:9606 Homo sapiens: 1 mentions, 1 surface forms");
        assertThat(lines)
                .anyMatch(l -> l.contains("\"acetaminophen\"") && l.endsWith(" -> mesh:D000082 Acetaminophen"));
    }

    @Test
    void saysTheDeadLettersWereSentOnPurpose() {
        DeadLetter bad = DeadLetters.of(
                "{not json".getBytes(StandardCharsets.UTF_8),
                "abstracts",
                0,
                100L,
                DeadLetters.PARSE,
                new InvalidRecordException("not valid JSON"));

        List<String> lines =
                DemoSummary.of(MODELS, List.of(), List.of(bad), 1.0).lines().toList();

        int at = lines.indexOf("dead letters (the demo sends 2 malformed records on purpose: each is refused with its "
                + "reason, and the stream goes on):");
        assertThat(at).as(String.join("\n", lines)).isNotNegative();
        assertThat(lines.get(at + 1)).isEqualTo("  abstracts@100: parse: not valid JSON");
    }

    /** The document with its mentions linked, in order, to "id name" concepts. */
    private static DocumentEntities linked(DocumentEntities d, String... concepts) {
        List<ConceptLink> links = new ArrayList<>();
        for (String concept : concepts) {
            String[] idName = concept.split(" ", 2);
            links.add(new ConceptLink(idName[0], idName[1], 1.0, "bioner-vocab-test:1"));
        }
        return DocumentEntities.newBuilder(d).setLinks(links).build();
    }

    /** One sentence; mentions given as type, text pairs. */
    private static DocumentEntities doc(String id, String model, String... typeText) {
        List<Mention> mentions = new ArrayList<>();
        for (int i = 0; i < typeText.length; i += 2) {
            mentions.add(Mention.newBuilder()
                    .setEventId(id + i)
                    .setEntityType(typeText[i])
                    .setText(typeText[i + 1])
                    .setStart(i)
                    .setEnd(i + 1)
                    .setField(TextField.ABSTRACT)
                    .setSentenceIndex(0)
                    .setScore(0.99)
                    .setQueryId(typeText[i])
                    .build());
        }
        return DocumentEntities.newBuilder()
                .setEventId(id)
                .setDocumentId(id)
                .setModelName(model.substring(0, model.indexOf(':')))
                .setModelVersion(model.substring(model.indexOf(':') + 1))
                .setSentences(1)
                .setProcessingTime(Instant.EPOCH)
                .setEntities(mentions)
                .build();
    }
}
