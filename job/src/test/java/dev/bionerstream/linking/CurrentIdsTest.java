package dev.bionerstream.linking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.formats.Annotated;
import dev.bionerstream.formats.PubTator;
import dev.bionerstream.text.DocumentText;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * Every id the shipped linker gives is a concept of its vocabularies in its current form: never an id
 * MeSH 2024 replaced (a 2015 supplementary concept that is a descriptor now, a MEDIC concept MeSH made
 * a descriptor), and a training name gives way to a descriptor created after its corpus.
 */
class CurrentIdsTest {
    private static final EntityLinker SHIPPED = ShippedLinkerTest.SHIPPED;

    /** The corpora's mention types, ours. */
    private static final Map<String, String> TYPES = Map.ofEntries(
            Map.entry("Chemical", "chemical"),
            Map.entry("Disease", "disease"),
            Map.entry("SpecificDisease", "disease"),
            Map.entry("DiseaseClass", "disease"),
            Map.entry("CompositeMention", "disease"),
            Map.entry("Modifier", "disease"),
            Map.entry("ChemicalEntity", "chemical"),
            Map.entry("DiseaseOrPhenotypicFeature", "disease"),
            Map.entry("GeneOrGeneProduct", "gene"),
            Map.entry("OrganismTaxon", "species"),
            Map.entry("Gene", "gene"),
            Map.entry("Species", "species"));

    private static String id(String type, String title, String abstractText, String mention) {
        DocumentText doc = DocumentText.of(title, abstractText);
        return SHIPPED.link(doc, List.of(new Mention(type, mention, doc.text().indexOf(mention))))
                .get(0)
                .id();
    }

    @Test
    void aChemicalBc5cdrAnnotatedAsASupplementaryConceptIsItsDescriptorNow() {
        assertThat(id("chemical", "Amisulpride in schizophrenia.", "", "Amisulpride"))
                .isEqualTo("mesh:D000077582");
        assertThat(id("chemical", "x", "Bortezomib was given.", "Bortezomib")).isEqualTo("mesh:D000069286");
        assertThat(id("chemical", "x", "everolimus was given.", "everolimus")).isEqualTo("mesh:D000068338");
        // a training name of the old id moves with it: BC5CDR's "Atorva" for atorvastatin
        assertThat(id("chemical", "x", "Atorva lowered cholesterol.", "Atorva")).isEqualTo("mesh:D000069059");
    }

    @Test
    void aDiseaseMedicKnewAsASupplementaryConceptIsMeshsDescriptorNow() {
        String abstractText =
                "Esophageal squamous cell carcinoma (ESCC) is common in China; ESCC has a poor prognosis.";
        assertThat(id("disease", "x", abstractText, "Esophageal squamous cell carcinoma"))
                .isEqualTo("mesh:D000077277");
        DocumentText doc = DocumentText.of("x", abstractText);
        int second = doc.text().lastIndexOf("ESCC");
        assertThat(SHIPPED.link(doc, List.of(new Mention("disease", "ESCC", second)))
                        .get(0)
                        .id())
                .as("its abbreviation")
                .isEqualTo("mesh:D000077277");
    }

    @Test
    void aTrainingNameGivesWayToADescriptorCreatedAfterItsCorpus() {
        String abstractText = "Children with autism spectrum disorder (ASD) were studied; ASD was diagnosed early.";
        assertThat(id("disease", "x", abstractText, "autism spectrum disorder")).isEqualTo("mesh:D000067877");
        DocumentText doc = DocumentText.of("x", abstractText);
        int second = doc.text().lastIndexOf("ASD");
        assertThat(SHIPPED.link(doc, List.of(new Mention("disease", "ASD", second)))
                        .get(0)
                        .id())
                .as("not Atrial Septal Defect 1")
                .isEqualTo("mesh:D000067877");
        // a convention older than the descriptors that have the name stays: BC5CDR's dyskinesia in a drug study
        assertThat(id("disease", "x", "Levodopa caused dyskinesia.", "dyskinesia"))
                .isEqualTo("mesh:D004409");
    }

    @Test
    void noIdLinkedOnAnyShippedCorpusIsOutsideTheVocabulariesOrReplaced() throws IOException {
        Path corpora = repository().resolve("corpora/linking");
        List<String> stale = new ArrayList<>();
        TreeSet<String> files = new TreeSet<>();
        int linked = 0;
        try (Stream<Path> all = Files.walk(corpora)) {
            for (Path file : all.filter(p -> p.toString().endsWith(".gz")).toList()) {
                files.add(corpora.relativize(file).toString());
                for (Annotated d : read(file)) {
                    DocumentText doc = DocumentText.of(d.title(), d.abstractText());
                    List<Mention> mentions = new ArrayList<>();
                    for (Annotated.Annotation a : d.annotations()) {
                        String type = TYPES.get(a.type());
                        if (type != null) {
                            mentions.add(new Mention(type, a.text(), doc.charOffset(a.start())));
                        }
                    }
                    List<Link> links = SHIPPED.link(doc, mentions);
                    for (int i = 0; i < links.size(); i++) {
                        Vocabulary v =
                                SHIPPED.vocabularies().get(mentions.get(i).type());
                        for (Concept c : links.get(i).concepts()) {
                            linked++;
                            String why = staleness(v, c);
                            if (why != null) {
                                stale.add(file.getFileName() + " " + d.id() + " \""
                                        + mentions.get(i).text() + "\" -> " + c.id() + ": " + why);
                            }
                        }
                    }
                }
            }
        }
        assertThat(files).as("the corpora under corpora/linking").hasSizeGreaterThanOrEqualTo(12);
        assertThat(linked).isGreaterThan(50_000);
        assertThat(stale).as("ids linked on %s", files).isEmpty();
    }

    /**
     * Why an id is not current, or null: no concept of the vocabulary, replaced in it, or a
     * supplementary concept whose name is a descriptor's preferred name (MeSH promoted it).
     */
    private static String staleness(Vocabulary v, Concept c) {
        if (!v.has(c.id())) {
            return "no concept of " + v.lineage();
        }
        if (v.isSuperseded(c.id())) {
            return "replaced in " + v.lineage();
        }
        if (c.id().startsWith("mesh:C")) {
            for (Candidate other : v.exact(NameKey.of(c.name()))) {
                if (other.concept().id().startsWith("mesh:D")
                        && other.concept().name().equalsIgnoreCase(c.name())) {
                    return "its name \"" + c.name() + "\" is the descriptor "
                            + other.concept().id() + "'s";
                }
            }
        }
        return null;
    }

    private static List<Annotated> read(Path file) throws IOException {
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(new GZIPInputStream(Files.newInputStream(file)), StandardCharsets.UTF_8))) {
            return PubTator.read(in, PubTator.MentionText.MAY_DIFFER);
        }
    }

    private static Path repository() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("corpora/linking"))) {
                return p;
            }
        }
        throw new IllegalStateException(
                "corpora/linking not found above " + Path.of("").toAbsolutePath());
    }
}
