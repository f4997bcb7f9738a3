package dev.bionerstream.linking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.text.DocumentText;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The linker on the shipped vocabularies (MeSH 2024, MEDIC, NCBI Gene for human and mouse, LINNAEUS):
 * the real names and ids the corpora use. The rules themselves are tested on tiny vocabularies the
 * tests write ({@link EntityLinkerTest}, {@link TinyVocabularies}); these tests load the 15 MB of
 * bundles once per test JVM and fail when the shipped data no longer gives the real cases' ids.
 */
class ShippedLinkerTest {
    static final EntityLinker SHIPPED = Linkers.shared(LinkSettings.shipped());

    static Link one(String text, String type, String mention) {
        return TinyVocabularies.first(SHIPPED, text, type, mention);
    }

    static String id(String type, String mention) {
        return one(mention, type, mention).id();
    }

    @Test
    void namesAndSynonymsLinkExactlyWhateverTheirCaseHyphensOrPlural() {
        assertThat(id("chemical", "Naloxone")).isEqualTo("mesh:D009270");
        assertThat(id("chemical", "naloxone hydrochloride")).isEqualTo("mesh:D009270");
        assertThat(List.of(id("chemical", "acetaminophen"), id("chemical", "Paracetamol"), id("chemical", "Tylenol")))
                .containsOnly("mesh:D000082");
        assertThat(id("disease", "Seizures"))
                .isEqualTo(id("disease", "seizure"))
                .isEqualTo("mesh:D012640");
        assertThat(id("gene", "BRCA1")).isEqualTo("ncbigene:672");
        assertThat(id("gene", "TNF-α")).isEqualTo(id("gene", "TNF alpha")).isEqualTo("ncbigene:7124");
        assertThat(id("species", "patients")).isEqualTo("ncbitaxon:9606");
        assertThat(id("gene", "PKCalpha")).isEqualTo("ncbigene:5578");
        assertThat(id("gene", "hGRalpha")).as("a human initial read past").isEqualTo("ncbigene:2908");
        Link naloxone = one("Naloxone", "chemical", "Naloxone");
        assertThat(naloxone.name()).isEqualTo("Naloxone");
        assertThat(naloxone.score()).isEqualTo(1.0);
    }

    @Test
    void anOrgansTumourIsItsNeoplasmsDescriptor() {
        assertThat(id("disease", "prostate carcinoma"))
                .isEqualTo(id("disease", "prostate cancer"))
                .isEqualTo("mesh:D011471");
        assertThat(id("disease", "pancreatic tumours")).isEqualTo("mesh:D010190");
        assertThat(id("disease", "prostatic adenocarcinoma")).isEqualTo("mesh:D011471");
    }

    @Test
    void theShippedBundlesAreTheReleasedOnes() {
        assertThat(SHIPPED.vocabularies()).containsOnlyKeys(LinkSettings.SHIPPED_TYPES);
        assertThat(SHIPPED.vocabularies().get("chemical").lineage()).isEqualTo("bioner-vocab-chemical:2024.1");
        assertThat(SHIPPED.vocabularies().get("gene").taxa()).contains(9606, 10090);
    }

    @Test
    void medicsAlternativeIdsNameTheSameConceptBothWays() {
        Vocabulary diseases = SHIPPED.vocabularies().get("disease");
        assertThat(diseases.sameAs("mesh:C531617")).contains("mesh:C531617", "omim:105400");
        assertThat(diseases.sameAs("omim:105400")).contains("mesh:C531617");
        assertThat(diseases.sameAs("mesh:D009270")).containsExactly("mesh:D009270");
    }

    @Test
    void anAbbreviationTakesTheConceptOfItsLongFormInTheSameDocument() {
        String text = "Patients with iodide transport defect (ITD) were studied. ITD is rare.";
        Link itd = one(text, "disease", "ITD");
        // NCBI-disease's omim:274400, an alternative id MEDIC gives the concept Thyroid Dyshormonogenesis 1
        assertThat(itd.id()).isEqualTo(id("disease", "iodide transport defect")).isEqualTo("mesh:C564766");
        // elsewhere "ITD" is not that disease
        assertThat(one("ITD was measured.", "disease", "ITD").id()).isNotEqualTo("mesh:C564766");
    }

    @Test
    void aCompositeMentionLinksToEachOfItsConcepts() {
        Link l = one("x", "disease", "colorectal and endometrial cancers");
        assertThat(l.concepts()).extracting(Concept::id).containsExactly("mesh:D015179", "mesh:D016889");
        assertThat(l.id()).isEqualTo("mesh:D015179|mesh:D016889");
        assertThat(one("x", "disease", "type 1 and type 2 diabetes").id()).isEqualTo("mesh:D003922|mesh:D003924");
    }

    @Test
    void aNameFoundNowhereExactlyTakesTheNearestAboveTheMinimumScore() {
        Link misspelt = one("x", "chemical", "acetaminophene");
        assertThat(misspelt.id()).isEqualTo("mesh:D000082");
        assertThat(misspelt.score()).isLessThan(1.0).isGreaterThanOrEqualTo(LinkSettings.DEFAULT_MIN_SCORE);
        assertThat(one("x", "disease", "cardiomyopathic").id()).isEqualTo("mesh:D009202");
    }

    @Test
    void aRealNameFarFromEveryNameIsNil() {
        Link near = one("x", "disease", "hepatotoxic damage");
        assertThat(near.isNil()).as("nearest name under the minimum score").isTrue();
        assertThat(near.score()).isGreaterThan(0.5).isLessThan(LinkSettings.DEFAULT_MIN_SCORE);
    }

    @Test
    void aGeneIsTheGeneOfTheSpeciesItsDocumentNames() {
        assertThat(linkGene("Levels of p53 rose in the mice.", "mice")).isEqualTo("ncbigene:22059");
        assertThat(linkGene("Levels of p53 rose in the patients.", "patients")).isEqualTo("ncbigene:7157");
        assertThat(linkGene("Levels of p53 rose.", null)).as("human first").isEqualTo("ncbigene:7157");
        // a species right before the gene wins over the document's most named one
        String text = "Mice and mice again: mice carrying human L-FABP.";
        List<Mention> mentions = new ArrayList<>();
        for (int at : new int[] {0, 9, 21}) {
            mentions.add(new Mention("species", text.substring(at, at + 4), at));
        }
        mentions.add(new Mention("species", "human", text.indexOf("human")));
        mentions.add(new Mention("gene", "L-FABP", text.indexOf("L-FABP")));
        assertThat(SHIPPED.link(DocumentText.of(text), mentions).get(4).id()).isEqualTo("ncbigene:2168");
    }

    @Test
    void aSymbolTwoGenesOfOneSpeciesShareIsTheGeneWhoseOtherNamesTheDocumentUses() {
        String receptors = "Protease-activated receptors in the bladder: PAR1-deficient mice had less edema.";
        String kinases =
                "MAP/microtubule affinity-regulating kinases set cell polarity: PAR1 in mice phosphorylates tau.";
        assertThat(linkGene(receptors, "PAR1", "mice"))
                .as("F2r, proteinase-activated receptor 1")
                .isEqualTo("ncbigene:14062");
        assertThat(linkGene(kinases, "PAR1", "mice"))
                .as("Mark2, a MAP/microtubule affinity regulating kinase")
                .isEqualTo("ncbigene:13728");
    }

    @Test
    void aGeneOfASpeciesOutsideTheGeneVocabularyIsReachedByTheTrainingCorpusNames() {
        // BioRED's training abstracts annotate BDNF in rat studies with the rat gene; the bundle keeps its species
        assertThat(linkGene("BDNF rose in the hippocampus of the rats.", "BDNF", "rats"))
                .isEqualTo("ncbigene:24225");
        assertThat(linkGene("BDNF rose in the hippocampus of the patients.", "BDNF", "patients"))
                .isEqualTo("ncbigene:627");
    }

    @Test
    void theGeneSpeciesOptionRestrictsGenesToTheTaxaGiven() {
        LinkSettings mouseOnly = new LinkSettings(
                Map.of("gene", VocabularyFiles.inJar("gene")), Map.of(), Map.of(), List.of(10090), 0.75);
        EntityLinker linker = Linkers.shared(mouseOnly);
        String text = "Levels of p53 rose in the patients.";
        assertThat(linker.link(DocumentText.of(text), List.of(new Mention("gene", "p53", 10)))
                        .get(0)
                        .id())
                .isEqualTo("ncbigene:22059");
    }

    /**
     * On the shipped vocabularies, not tiny ones: a trigram query gathers its candidates in a scratch
     * buffer, and only a vocabulary with far more names than a query scores exactly
     * ({@code TrigramIndex.CANDIDATES}) would link differently if two threads shared one.
     */
    @Test
    void theSameMentionsGetTheSameLinksOnAnyThread() throws Exception {
        String text = "Naloxone and acetaminophene in mice with nephrotoxic injury; p53, PKCalpha and hGRalpha; "
                + "cardiomyopathic changes, qwxzv blorf and colorectal and endometrial cancers in patients.";
        List<Mention> mentions = new ArrayList<>();
        for (String[] m : new String[][] {
            {"chemical", "Naloxone"},
            {"chemical", "acetaminophene"},
            {"species", "mice"},
            {"disease", "nephrotoxic injury"},
            {"gene", "p53"},
            {"gene", "PKCalpha"},
            {"gene", "hGRalpha"},
            {"disease", "cardiomyopathic"},
            {"chemical", "qwxzv blorf"},
            {"disease", "colorectal and endometrial cancers"},
            {"species", "patients"}
        }) {
            mentions.add(new Mention(m[0], m[1], text.indexOf(m[1])));
        }
        List<Link> expected = SHIPPED.link(DocumentText.of(text), mentions);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<List<Link>>> runs = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                runs.add(pool.submit(() -> SHIPPED.link(DocumentText.of(text), mentions)));
            }
            for (Future<List<Link>> run : runs) {
                assertThat(run.get()).isEqualTo(expected);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static String linkGene(String text, String species) {
        return linkGene(text, "p53", species);
    }

    private static String linkGene(String text, String gene, String species) {
        List<Mention> mentions = new ArrayList<>();
        mentions.add(new Mention("gene", gene, text.indexOf(gene)));
        if (species != null) {
            mentions.add(new Mention("species", species, text.indexOf(species)));
        }
        return SHIPPED.link(DocumentText.of(text), mentions).get(0).id();
    }
}
