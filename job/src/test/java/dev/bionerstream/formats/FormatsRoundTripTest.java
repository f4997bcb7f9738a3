package dev.bionerstream.formats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bionerstream.avro.ConceptLink;
import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.avro.Mention;
import dev.bionerstream.avro.TextField;
import java.io.BufferedReader;
import java.io.StringReader;
import java.io.StringWriter;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The job's records to PubTator and BioC JSON and back, offsets included, across characters outside the BMP. */
class FormatsRoundTripTest {
    static final String TITLE = "Lithium 🧪 toxicity";
    static final String ABSTRACT = "Renal failure after lithium and 𝛽-blockers.";

    static Mention mention(TextField field, String text, String in, String type) {
        int start = in.indexOf(text);
        return Mention.newBuilder()
                .setEventId("e-" + field + start)
                .setEntityType(type)
                .setText(text)
                .setStart(start)
                .setEnd(start + text.length())
                .setField(field)
                .setSentenceIndex(0)
                .setScore(0.9)
                .setQueryId(type + "@q")
                .build();
    }

    static final DocumentEntities DOC = DocumentEntities.newBuilder()
            .setEventId("d")
            .setDocumentId("123")
            .setTitle(TITLE)
            .setAbstractText(ABSTRACT)
            .setModelName("m")
            .setModelVersion("1")
            .setSentences(2)
            .setProcessingTime(Instant.EPOCH)
            .setEntities(List.of(
                    mention(TextField.TITLE, "Lithium", TITLE, "chemical"),
                    mention(TextField.TITLE, "toxicity", TITLE, "disease"),
                    mention(TextField.ABSTRACT, "Renal failure", ABSTRACT, "disease"),
                    mention(TextField.ABSTRACT, "𝛽-blockers", ABSTRACT, "chemical")))
            // Lithium linked; toxicity NIL; the rest as a record linked before linking existed leaves it
            .setLinks(List.of(
                    new ConceptLink("mesh:D008094", "Lithium", 1.0, "bioner-vocab-chemical:2024.1"),
                    new ConceptLink(null, null, 0.5, "bioner-vocab-disease:2024.1")))
            .build();

    @Test
    void pubTatorOffsetsCountCodePointsOverTitleSpaceAbstractAndComeBack() throws Exception {
        Annotated a = Offsets.annotated(DOC);
        StringWriter out = new StringWriter();
        PubTator.write(a, out);
        String text = TITLE + " " + ABSTRACT;
        assertThat(out.toString())
                .as("the linked concept in PubTator's id column, '-' where there is none")
                .startsWith("123|t|" + TITLE + "\n123|a|" + ABSTRACT + "\n123\t0\t7\tLithium\tChemical\tmesh:D008094\n")
                .contains("\ttoxicity\tDisease\t-\n");
        for (Annotated.Annotation ann : a.annotations()) {
            int from = text.offsetByCodePoints(0, ann.start());
            int to = text.offsetByCodePoints(0, ann.end());
            assertThat(text.substring(from, to)).isEqualTo(ann.text());
        }
        List<Annotated> back =
                PubTator.read(new BufferedReader(new StringReader(out.toString())), PubTator.MentionText.MUST_MATCH);
        assertThat(back).containsExactly(a);
        for (int i = 0; i < DOC.getEntities().size(); i++) {
            Mention m = DOC.getEntities().get(i);
            assertThat(Offsets.fieldSpan(back.get(0), back.get(0).annotations().get(i)))
                    .isEqualTo(new Offsets.FieldSpan(m.getField(), m.getStart(), m.getEnd()));
        }
    }

    @Test
    void bioCJsonRoundTrips() throws Exception {
        Annotated a = Offsets.annotated(DOC);
        ObjectMapper json = new ObjectMapper();
        String written = json.writeValueAsString(BioCJson.collection("bioner-stream", "20261122", List.of(a, a)));
        var tree = json.readTree(written);
        assertThat(tree.at("/documents/0/passages/1/offset").asInt()).isEqualTo(a.abstractOffset());
        assertThat(tree.at("/documents/0/passages/0/annotations")).hasSize(2);
        assertThat(tree.at("/documents/0/passages/0/annotations/0/infons/identifier")
                        .asText())
                .isEqualTo("mesh:D008094");
        assertThat(BioCJson.read(tree)).containsExactly(a, a);
    }

    @Test
    void bioCXmlRoundTripsWithMarkupCharactersAndCharactersOutsideTheBmp() throws Exception {
        Annotated a = Offsets.annotated(DOC);
        Annotated b = new Annotated(
                "x<&>\"",
                "𝛼-Synuclein & <tau> in \"PD\"",
                "The 𝛼-synuclein gene (SNCA) & tau.",
                List.of(
                        new Annotated.Annotation(0, 11, "𝛼-Synuclein", "Gene", "-"),
                        new Annotated.Annotation(30, 41, "𝛼-synuclein", "Gene", "6622")));
        StringWriter out = new StringWriter();
        BioCXml.write("bioner-stream", "20261122", List.of(a, b), out);
        String xml = out.toString();
        assertThat(xml)
                .contains(
                        "<infon key=\"type\">abstract</infon>",
                        "&lt;tau&gt;",
                        "<location offset=\"30\" length=\"11\"",
                        "<infon key=\"identifier\">mesh:D008094</infon>");
        assertThat(BioCXml.read(new StringReader(xml))).containsExactly(a, b);
    }

    /** PMC-style BioC: passages far apart in the document, annotations located in the document. */
    @Test
    void annotationsOfPassagesThatAreNotOneSpaceApartStayOnTheirWords() throws Exception {
        String json =
                """
                {"documents": [{"id": "PMC1", "passages": [
                  {"offset": 0, "text": "Lithium and mice.", "annotations": [
                    {"text": "Lithium", "infons": {"type": "Chemical"}, "locations": [{"offset": 0, "length": 7}]}]},
                  {"offset": 100, "text": "Seizures in rats.", "annotations": [
                    {"text": "rats", "infons": {"type": "Species"}, "locations": [{"offset": 112, "length": 4}]}]},
                  {"offset": 500, "text": "Caption: valproate.", "annotations": [
                    {"text": "valproate", "infons": {"type": "Chemical"}, "locations": [{"offset": 509, "length": 9}]}]}
                ]}]}
                """;
        String xml =
                """
                <collection><document><id>PMC1</id>
                <passage><offset>0</offset><text>Lithium and mice.</text>
                  <annotation id="0"><infon key="type">Chemical</infon><location offset="0" length="7"/><text>Lithium</text></annotation></passage>
                <passage><offset>100</offset><text>Seizures in rats.</text>
                  <annotation id="1"><infon key="type">Species</infon><location offset="112" length="4"/><text>rats</text></annotation></passage>
                <passage><offset>500</offset><text>Caption: valproate.</text>
                  <annotation id="2"><infon key="type">Chemical</infon><location offset="509" length="9"/><text>valproate</text></annotation></passage>
                </document></collection>
                """;
        List<Annotated> fromJson = BioCJson.read(new ObjectMapper().readTree(json));
        List<Annotated> fromXml = BioCXml.read(new StringReader(xml));
        for (Annotated d : List.of(fromJson.get(0), fromXml.get(0))) {
            assertThat(d.abstractText()).isEqualTo("Seizures in rats. Caption: valproate.");
            String text = d.title() + " " + d.abstractText();
            assertThat(d.annotations())
                    .extracting(a -> text.substring(a.start(), a.end()))
                    .containsExactly("Lithium", "rats", "valproate");
        }
    }

    @Test
    void malformedBioCXmlSaysWhatIsWrong() {
        assertThatThrownBy(() -> BioCXml.read(new StringReader("<collection><document><id>1</id><passage>")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("BioC XML: not well-formed");
        assertThatThrownBy(() -> BioCXml.read(new StringReader(
                        "<collection>\n<document><passage><text>t</text></passage></document></collection>")))
                .hasMessage("BioC XML: the document at line 2 has a passage before its <id>");
    }

    @Test
    void aPubTatorFileWithConceptIdsAndRelationsReadsAsWritten() {
        String file =
                """
                227508|t|Naloxone reverses the antihypertensive effect of clonidine.
                227508|a|In unanesthetized, spontaneously hypertensive rats the decrease in blood pressure was reversed.
                227508\t0\t8\tNaloxone\tChemical\tD009270
                227508\t49\t58\tclonidine\tChemical\tD003000
                227508\t93\t105\thypertensive\tDisease\tD006973
                227508\tCID\tD008750\tD003866

                354896|t|Lidocaine-induced cardiac asystole.
                354896|a|
                354896\t0\t9\tLidocaine\tChemical\tD008012
                354896\tAssociation\tD008012\tD006323\tNovel
                """;
        List<Annotated> docs =
                PubTator.read(new BufferedReader(new StringReader(file)), PubTator.MentionText.MUST_MATCH);
        assertThat(docs).extracting(Annotated::id).containsExactly("227508", "354896");
        assertThat(docs).extracting(d -> d.annotations().size()).containsExactly(3, 1); // relations read past
        Annotated first = docs.get(0);
        String text = first.title() + " " + first.abstractText();
        assertThat(first.annotations())
                .allSatisfy(x -> assertThat(text.substring(x.start(), x.end())).isEqualTo(x.text()));
        assertThat(first.annotations().get(0).conceptId()).isEqualTo("D009270");
        assertThat(Offsets.fieldSpan(first, first.annotations().get(2)).field()).isEqualTo(TextField.ABSTRACT);
    }

    @Test
    void aMalformedLineIsNamed() {
        assertThat(malformed("1|t|x\n1\t0\tthree\tabc\tChemical\n")).contains("line 2", "integers", "three");
        assertThat(malformed("1|t|x\n1\t0\t3\n")).contains("line 2", "separated by tabs");
        // a start that is not a number is no relation line: relations have a word there and at most five fields
        assertThat(malformed("1|t|abc def\n1\tx5\t3\tabc\tChemical\t-\n")).contains("line 2", "integers", "x5");
        assertThat(malformed("1|t|abc def\n1\t-5\t3\tabc\tChemical\t-\n")).contains("line 2", "negative");
        assertThat(malformed("1|t|abc def\n1\t7\t2\tabc\tChemical\t-\n")).contains("line 2", "before it starts");
        assertThat(malformed("1|t|abc\n1|a|def\n1\t4\t30\tdef\tChemical\t-\n")).contains("line 3", "past the end");
        assertThat(malformed("1|t|abc\n1|a|def\n1\t0\t3\tdef\tChemical\t-\n"))
                .contains("line 3", "\"def\" is not the text", "\"abc\"");
        assertThat(PubTator.read(
                                new BufferedReader(new StringReader("1|t|abc\n1|a|def\n1\t0\t3\tdef\tChemical\t-\n")),
                                PubTator.MentionText.MAY_DIFFER)
                        .get(0)
                        .annotations())
                .as("a corpus's own errors, kept where they may differ")
                .hasSize(1);
        assertThat(PubTator.read(
                        new BufferedReader(
                                new StringReader("1|t|abc\n1|a|def\n1\tCID\tD1\tD2\n1\tAssociation\t672\tD2\tNovel\n")),
                        PubTator.MentionText.MUST_MATCH))
                .as("relation lines are read past")
                .singleElement()
                .satisfies(d -> assertThat(d.annotations()).isEmpty());
    }

    private static String malformed(String file) {
        try {
            PubTator.read(new BufferedReader(new StringReader(file)), PubTator.MentionText.MUST_MATCH);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        throw new AssertionError("read without an error: " + file);
    }
}
