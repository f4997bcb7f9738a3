package dev.bionerstream.linking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.text.DocumentText;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A disease written another way: the variants in order, and what the shipped vocabulary makes of them. */
class DiseaseVariantsTest {
    private static final EntityLinker SHIPPED = Linkers.shared(LinkSettings.shipped());

    @Test
    void adjectivesReadAsTheirNounsThenLeadingModifiersDropped() {
        assertThat(DiseaseVariants.of("GH-deficient", Map.of())).containsExactly("gh deficiency");
        assertThat(DiseaseVariants.of("injured liver", Map.of())).containsExactly("liver injury");
        assertThat(DiseaseVariants.of("hyper locomotion", Map.of())).containsExactly("hyperlocomotion");
        assertThat(DiseaseVariants.of("primary cutaneous large B-cell lymphoma", Map.of()))
                .containsExactly(
                        "cutaneous large b cell lymphoma", "large b cell lymphoma", "b cell lymphoma", "cell lymphoma");
    }

    @Test
    void theDocumentsAbbreviationsAreWrittenOutFirst() {
        Map<String, Abbreviations.Definition> defined =
                Map.of("DM", new Abbreviations.Definition("myotonic dystrophy", 0));
        assertThat(DiseaseVariants.of("congenital DM", defined))
                .startsWith("congenital myotonic dystrophy")
                .contains("myotonic dystrophy");
    }

    @Test
    void anOrgansAbbreviationIsWrittenOutUnlessTheDocumentDefinesItOtherwise() {
        assertThat(DiseaseVariants.of("LV dysfunction", Map.of())).startsWith("left ventricular dysfunction");
        assertThat(DiseaseVariants.of("GI bleeding", Map.of())).startsWith("gastrointestinal bleeding");
        Map<String, Abbreviations.Definition> defined = Map.of("LV", new Abbreviations.Definition("lentiviral", 0));
        assertThat(DiseaseVariants.of("LV dysfunction", defined)).startsWith("lentiviral dysfunction");
    }

    @Test
    void coordinatedAndNegatedNamesKeepTheirWords() {
        assertThat(DiseaseVariants.of("non-familial cancers", Map.of())).isEmpty();
        assertThat(DiseaseVariants.of("colorectal adenomas and carcinoma", Map.of()))
                .isEmpty();
    }

    @Test
    void theIssuesPhenotypesLinkWhereTheirNamesAndNearestNamesFindNothing() {
        String text = "The injured liver showed necrosis. Primary cutaneous large B-cell lymphoma (PCLBCL) is rare;"
                + " PCLBCL relapses. Dystrophia myotonica (DM) was diagnosed; congenital DM is severe."
                + " LV dysfunction followed.";
        List<Link> links = SHIPPED.link(
                DocumentText.of(text),
                List.of(
                        mention(text, "injured liver", 0),
                        mention(text, "Primary cutaneous large B-cell lymphoma", 0),
                        mention(text, "PCLBCL", text.lastIndexOf("PCLBCL")),
                        mention(text, "congenital DM", 0),
                        mention(text, "LV dysfunction", 0)));
        assertThat(links.get(0).id()).as("injured liver: liver injury").isEqualTo("mesh:D056486");
        assertThat(links.get(1).id())
                .as("a lymphoma NIL before: B-cell lymphoma, the nearest broader name the vocabulary has")
                .isEqualTo("mesh:D016393");
        assertThat(links.get(2).id())
                .as("its abbreviation, as its long form")
                .isEqualTo(links.get(1).id());
        assertThat(links.get(3).id())
                .as("DM as this document defines it, not diabetes mellitus")
                .isEqualTo("mesh:D009223");
        assertThat(links.get(4).id())
                .as("an organ abbreviated undefined: left ventricular dysfunction")
                .isEqualTo("mesh:D018487");
    }

    private static Mention mention(String text, String name, int from) {
        return new Mention("disease", name, text.indexOf(name, from));
    }
}
