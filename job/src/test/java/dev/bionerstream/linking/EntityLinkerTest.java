package dev.bionerstream.linking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.text.DocumentText;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The linker's steps for one name ({@link NameResolver}, {@link EntityLinker}) on the tiny
 * vocabularies of {@link TinyVocabularies#world}: exact names, a document's abbreviations,
 * composite mentions, trigram candidates and the minimum score, alternative and superseded ids, and
 * the same links in any order. {@link ShippedLinkerTest} checks the real names on the shipped
 * vocabularies, and the same links on any thread.
 */
class EntityLinkerTest {
    private static final EntityLinker linker = TinyVocabularies.world();

    static Link one(String text, String type, String mention) {
        return TinyVocabularies.first(linker, text, type, mention);
    }

    static String id(String type, String mention) {
        return one(mention, type, mention).id();
    }

    @Test
    void theBundlesAreReadWithEveryFile() {
        assertThat(linker.vocabularies()).containsOnlyKeys("chemical", "disease", "gene", "species");
        assertThat(linker.vocabularies().get("chemical").lineage()).isEqualTo("tiny-chemical:1");
        assertThat(linker.vocabularies().get("gene").taxa()).containsOnly(9606, 10090, 10116);
        assertThat(linker.vocabularies().get("species").taxonomySize()).isEqualTo(4);
    }

    @Test
    void namesAndSynonymsLinkExactlyWhateverTheirCaseHyphensOrPlural() {
        assertThat(id("chemical", "NALOXONE")).isEqualTo("mesh:D1");
        assertThat(id("chemical", "naloxone-hydrochloride")).isEqualTo("mesh:D1");
        assertThat(List.of(id("chemical", "acetaminophen"), id("chemical", "Paracetamol"), id("chemical", "Tylenol")))
                .containsOnly("mesh:D2");
        assertThat(id("disease", "seizure"))
                .isEqualTo(id("disease", "Convulsions"))
                .isEqualTo("mesh:D10");
        Link naloxone = one("naloxone", "chemical", "naloxone");
        assertThat(naloxone.name()).as("the preferred name").isEqualTo("Naloxone");
        assertThat(naloxone.score()).isEqualTo(1.0);
    }

    @Test
    void aGenesNameIsAlsoFoundWithoutATrailingProteinAndWithOneLetterGreek() {
        assertThat(id("gene", "BRCA1 protein"))
                .isEqualTo(id("gene", "BRCA1 gene"))
                .isEqualTo("ncbigene:672");
        assertThat(id("gene", "b-catenin")).isEqualTo(id("gene", "β-catenin")).isEqualTo("ncbigene:1499");
        assertThat(id("chemical", "Naloxone protein")).as("genes only").isNotEqualTo("mesh:D1");
    }

    @Test
    void aHumanOrMouseInitialBeforeAGeneSymbolIsReadPast() {
        assertThat(linkGene("hGR was measured in the mice.", "hGR")).isEqualTo("ncbigene:2908");
        assertThat(linkGene("mGR was measured in the patients.", "mGR")).isEqualTo("ncbigene:14815");
    }

    @Test
    void anAliasSharedByGenesIsTheGeneItRecursIn() {
        assertThat(linkGene("p38 was phosphorylated in patients.", "p38"))
                .as("MAPK14 (p38, p38 MAP kinase, MAP kinase p38 alpha), not GRAP2 (one alias P38, more names)")
                .isEqualTo("ncbigene:1432");
    }

    @Test
    void anOrgansTumourIsItsCancer() {
        assertThat(id("disease", "prostate carcinoma"))
                .isEqualTo(id("disease", "prostate tumours"))
                .isEqualTo(id("disease", "Prostate cancer"))
                .isEqualTo("mesh:D11");
        assertThat(id("chemical", "Clonidine tumour")).as("diseases only").isNotEqualTo("mesh:D3");
    }

    @Test
    void alternativeAndSupersededIdsNameTheSameConceptBothWays() {
        Vocabulary diseases = linker.vocabularies().get("disease");
        assertThat(diseases.sameAs("mesh:C14")).containsExactly("mesh:C14", "omim:274400");
        assertThat(diseases.sameAs("omim:274400")).containsExactly("mesh:C14", "omim:274400");
        assertThat(diseases.sameAs("mesh:D10")).containsExactly("mesh:D10");
        Vocabulary chemicals = linker.vocabularies().get("chemical");
        assertThat(chemicals.isSuperseded("mesh:C4")).isTrue();
        assertThat(chemicals.isSuperseded("mesh:D4")).isFalse();
        assertThat(chemicals.sameAs("mesh:C4")).containsExactly("mesh:C4", "mesh:D4");
        assertThat(chemicals.sameAs("mesh:D4")).containsExactly("mesh:C4", "mesh:D4");
        assertThat(chemicals.has("mesh:C4"))
                .as("the bundle never gives a replaced id")
                .isFalse();
        assertThat(id("chemical", "Amisulpride")).isEqualTo("mesh:D4");
    }

    @Test
    void anAbbreviationTakesTheConceptOfItsLongFormInTheSameDocument() {
        String text = "Patients with iodide transport defect (ITD) were studied. ITD is rare.";
        Link itd = TinyVocabularies.last(linker, text, "disease", "ITD");
        assertThat(itd.id()).isEqualTo("mesh:C14");
        assertThat(itd.score()).isEqualTo(1.0);
        assertThat(one("ITD was measured.", "disease", "ITD").isNil())
                .as("undefined elsewhere")
                .isTrue();
        // a long form that is only near a name still gives the abbreviation its concept
        String near = "Patients with iodine transport defects (ITD) were studied. ITD is rare.";
        Link approximate = TinyVocabularies.last(linker, near, "disease", "ITD");
        assertThat(approximate.id()).isEqualTo("mesh:C14");
        assertThat(approximate.score()).isLessThan(1.0);
    }

    @Test
    void anAbbreviationWhoseLongFormFindsNothingIsNotReadByItsLettersAlone() {
        // the real chemicals score "OB" 0.815 against leptin's "Ob Protein"; a few names score less
        EntityLinker lenient = linker.withMinScore(0.3);
        assertThat(TinyVocabularies.first(lenient, "OB was measured.", "chemical", "OB")
                        .id())
                .as("undefined, the letters are near leptin's Ob protein")
                .isEqualTo("mesh:D5");
        String text = "Rats were given otilonium bromide (OB). OB reduced the pain.";
        assertThat(TinyVocabularies.last(lenient, text, "chemical", "OB").isNil())
                .as("defined as a drug the vocabulary lacks")
                .isTrue();
    }

    @Test
    void aCompositeMentionLinksToEachOfItsConcepts() {
        Link l = one("x", "disease", "breast and ovarian cancer");
        assertThat(l.concepts()).extracting(Concept::id).containsExactly("mesh:D12", "mesh:D13");
        assertThat(l.id()).isEqualTo("mesh:D12|mesh:D13");
        assertThat(l.score()).isEqualTo(1.0);
        assertThat(one("x", "disease", "ovarian, breast or prostate cancers").id())
                .isEqualTo("mesh:D13|mesh:D12|mesh:D11");
        assertThat(one("x", "disease", "breast cancer or breast neoplasm").id())
                .as("a concept once")
                .isEqualTo("mesh:D12");
    }

    @Test
    void aNameFoundNowhereExactlyTakesTheNearestAboveTheMinimumScore() {
        Link misspelt = one("x", "chemical", "acetaminophene");
        assertThat(misspelt.id()).isEqualTo("mesh:D2");
        assertThat(misspelt.score()).isLessThan(1.0).isGreaterThanOrEqualTo(LinkSettings.DEFAULT_MIN_SCORE);
        assertThat(one("x", "disease", "cardiomyopathy").id()).isEqualTo("mesh:D16");
    }

    @Test
    void nothingCloseEnoughIsNilAndTheMentionIsKept() {
        Link far = one("x", "chemical", "qwxzv blorf");
        assertThat(far.isNil()).isTrue();
        assertThat(far.id()).isNull();
        assertThat(far.name()).isNull();
        assertThat(far.score()).isLessThan(LinkSettings.DEFAULT_MIN_SCORE);
        Link near = one("x", "disease", "nephrotoxic");
        assertThat(near.isNil()).as("nearest name under the minimum score").isTrue();
        assertThat(near.score()).isGreaterThan(0.3).isLessThan(LinkSettings.DEFAULT_MIN_SCORE);
        assertThat(atMinScore(0, "disease", "nephrotoxic").id())
                .as("at minimum score 0 the best candidate")
                .isEqualTo("mesh:D15");
        assertThat(atMinScore(near.score(), "disease", "nephrotoxic").id())
                .as("a score equal to the minimum is enough")
                .isEqualTo("mesh:D15");
        Link untyped = one("x", "cell_line", "Naloxone");
        assertThat(untyped.isNil()).as("no vocabulary for the type").isTrue();
        assertThat(untyped.score()).isZero();
    }

    private static Link atMinScore(double minScore, String type, String mention) {
        return linker.withMinScore(minScore)
                .link(DocumentText.of("x"), List.of(new Mention(type, mention)))
                .get(0);
    }

    /** Mentions of every step and type, their document's abbreviation and species included. */
    private static final String TEXT =
            "Naloxone reverses the effect of clonidine in mice and patients with iodide transport defect (ITD);"
                    + " p53 and BRCA1 levels, ITD, breast and ovarian cancer, acetaminophene, qwxzv blorf, PAR1,"
                    + " nephrotoxic injury in rats, BDNF.";

    private static List<Mention> mentionsOfEveryStep() {
        List<Mention> mentions = new ArrayList<>();
        for (String[] m : new String[][] {
            {"chemical", "Naloxone"},
            {"chemical", "clonidine"},
            {"species", "mice"},
            {"species", "patients"},
            {"disease", "iodide transport defect"},
            {"disease", "ITD"},
            {"gene", "p53"},
            {"gene", "BRCA1"},
            {"disease", "breast and ovarian cancer"},
            {"chemical", "acetaminophene"},
            {"chemical", "qwxzv blorf"},
            {"gene", "PAR1"},
            {"disease", "nephrotoxic injury"},
            {"species", "rats"},
            {"gene", "BDNF"}
        }) {
            mentions.add(new Mention(m[0], m[1], TEXT.indexOf(m[1])));
        }
        return mentions;
    }

    @Test
    void theSameMentionsGetTheSameLinksInAnyOrder() {
        List<Mention> mentions = mentionsOfEveryStep();
        List<Link> expected = linker.link(DocumentText.of(TEXT), mentions);
        assertThat(expected).filteredOn(l -> !l.isNil()).hasSize(12);
        Random random = new Random(7);
        for (int round = 0; round < 50; round++) {
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < mentions.size(); i++) {
                order.add(i);
            }
            Collections.shuffle(order, random);
            List<Link> shuffled = linker.link(
                    DocumentText.of(TEXT), order.stream().map(mentions::get).toList());
            for (int i = 0; i < order.size(); i++) {
                assertThat(shuffled.get(i)).isEqualTo(expected.get(order.get(i)));
            }
        }
    }

    private static String linkGene(String text, String gene) {
        return one(text, "gene", gene).id();
    }
}
