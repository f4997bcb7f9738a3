package dev.bionerstream.linking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.text.DocumentText;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rules that give a gene mention its species ({@link SpeciesEvidence}, {@link SpeciesNames})
 * and choose among the genes of one name ({@link NameResolver}), on the tiny vocabularies of {@link
 * TinyVocabularies#world}: human and mouse genes, a rat gene only the training corpus names, no yeast
 * gene. {@link GeneSpeciesTest} checks the real abstracts on the shipped vocabularies.
 */
class GeneSpeciesRulesTest {
    private static final EntityLinker linker = TinyVocabularies.world();

    /** Every occurrence of each gene in the document, linked; their ids in text order. */
    static List<String> genes(EntityLinker linker, String title, String abstractText, String... genes) {
        DocumentText doc = DocumentText.of(title, abstractText);
        List<Mention> mentions = new ArrayList<>();
        for (String gene : genes) {
            Matcher m = Pattern.compile("\\b" + Pattern.quote(gene) + "\\b").matcher(doc.text());
            while (m.find()) {
                mentions.add(new Mention("gene", gene, m.start()));
            }
        }
        mentions.sort((a, b) -> Integer.compare(a.start(), b.start()));
        return linker.link(doc, mentions).stream().map(Link::id).toList();
    }

    private static List<String> genes(String title, String abstractText, String... genes) {
        return genes(linker, title, abstractText, genes);
    }

    @Test
    void aGeneIsTheGeneOfTheSpeciesItsDocumentNames() {
        assertThat(genes("x", "Levels of p53 rose in the mice.", "p53")).containsExactly("ncbigene:22059");
        assertThat(genes("x", "Levels of p53 rose in the patients.", "p53")).containsExactly("ncbigene:7157");
        assertThat(genes("x", "Levels of p53 rose.", "p53"))
                .as("human when none")
                .containsExactly("ncbigene:7157");
    }

    @Test
    void aSpeciesMentionTheModelFoundIsEvidenceAsTheTextsNamesAre() {
        String text = "Levels of p53 rose in the mice.";
        List<Mention> mentions = List.of(
                new Mention("gene", "p53", text.indexOf("p53")), new Mention("species", "mice", text.indexOf("mice")));
        List<Link> links = linker.link(DocumentText.of(text), mentions);
        assertThat(links).extracting(Link::id).containsExactly("ncbigene:22059", "ncbitaxon:10090");
    }

    @Test
    void theNearestEvidenceDecidesTheMentionThenItsSentenceThenItsParagraphThenTheDocument() {
        assertThat(genes("x", "Mice and mice again: mice carrying human p53.", "p53"))
                .as("on the mention")
                .containsExactly("ncbigene:7157");
        assertThat(genes("x", "In patients with tumours of the brain, p53 was low. Mice died.", "p53"))
                .as("in its sentence, though a species of the next is nearer")
                .containsExactly("ncbigene:7157");
        assertThat(genes("p53 in tumours.", "Tumours of mice were studied; mice and mice again.", "p53"))
                .as("the document's most named, from the title")
                .containsExactly("ncbigene:22059");
        assertThat(genes("x", "Patients were studied. Mice were studied. Then p53 rose.", "p53"))
                .as("the nearest in its paragraph")
                .containsExactly("ncbigene:22059");
    }

    @Test
    void anAbbreviationsSpeciesIsThatOfItsDefinition() {
        String text = "Human glucocorticoid receptor (GR) was expressed in mice; GR rose in the mice.";
        assertThat(TinyVocabularies.last(linker, text, "gene", "GR").id()).isEqualTo("ncbigene:2908");
    }

    @Test
    void aGeneOfASpeciesTheVocabulariesDoNotHoldIsNil() {
        assertThat(genes("x", "In budding yeast, RAD51 is needed for the repair of breaks.", "RAD51"))
                .containsOnlyNulls()
                .hasSize(1);
        assertThat(genes("x", "RAD51 foci were counted in tumours of the patients.", "RAD51"))
                .containsExactly("ncbigene:5888");
        // named once, away from the mention, a species without genes is too little to make its genes NIL
        assertThat(genes("RAD51 foci in tumour cells.", "The recombinase is conserved from yeast to mammals.", "RAD51"))
                .containsExactly("ncbigene:5888");
    }

    @Test
    void aModelOrganismsGenusNamedAloneIsItsModelSpecies() {
        assertThat(genes("x", "In Arabidopsis, RAD51 is needed for crossovers.", "RAD51"))
                .as("a plant's gene, though no species is written out: NIL")
                .containsOnlyNulls()
                .hasSize(1);
        assertThat(genes("x", "Xenopus embryos lacking RAD51 die before the tadpole stage.", "RAD51"))
                .containsOnlyNulls()
                .hasSize(1);
        assertThat(genes("x", "RAD51 was injected into Xenopus oocytes, where it formed foci.", "RAD51"))
                .as("Xenopus oocytes express other species' genes")
                .containsExactly("ncbigene:5888");
    }

    @Test
    void aSymbolWrittenAsTheDocumentsMostNamedSpeciesWritesItsSymbolsIsThatSpecies() {
        List<String> ids = genes(
                "BRCA1 in breast cancer.",
                "Germline mutations of BRCA1 predispose women to breast cancer. Mice lacking Brca1 develop tumours."
                        + " BRCA1 is needed for repair.",
                "BRCA1",
                "Brca1");
        assertThat(ids).containsExactly("ncbigene:672", "ncbigene:672", "ncbigene:12189", "ncbigene:672");
    }

    @Test
    void aDocumentThatNamesNoSpeciesTakesTheConventionMostOfItsSymbolsFollow() {
        assertThat(genes("x", "Socs2 and Brca1 bind p53.", "Socs2", "Brca1", "p53"))
                .containsExactly(null, "ncbigene:12189", "ncbigene:22059");
        assertThat(genes("x", "TP53 and BRCA1 bind p53.", "TP53", "BRCA1", "p53"))
                .containsExactly("ncbigene:7157", "ncbigene:672", "ncbigene:7157");
    }

    @Test
    void speciesNamesThatSayNothingOfTheGenesSpeciesAreNotEvidence() {
        // softly: each kind of name is a rule of its own
        SoftAssertions.assertSoftly(softly -> {
            softly.assertThat(genes("x", "A yeast two-hybrid screen found that ataxin-3 binds p53.", "p53"))
                    .as("a method")
                    .containsExactly("ncbigene:7157");
            softly.assertThat(genes(
                            "x", "p53 was lost in the patients. Xenografts grew slowly in nude mice; p53 rose.", "p53"))
                    .as("a host")
                    .containsExactly("ncbigene:7157", "ncbigene:7157");
            softly.assertThat(genes("x", "In mice, the RNA-binding homolog (yeast) of p53 rose.", "p53"))
                    .as("a gene's name")
                    .containsExactly("ncbigene:22059");
            softly.assertThat(genes("x", "Mice were studied. The p53 family includes p63.", "p53"))
                    .as("a word of prose")
                    .containsExactly("ncbigene:22059");
            softly.assertThat(genes("x", "Mice were studied. The p53 gene, on chromosome 17p13, was lost.", "p53"))
                    .as("a human chromosome band")
                    .containsExactly("ncbigene:7157");
            // below, each species is named twice, which would make it the document's species
            softly.assertThat(genes(
                            "RAD51 foci in tumour cells.",
                            "The recombinase is conserved from yeast to mammals, its partner from yeast to humans.",
                            "RAD51"))
                    .as("a range")
                    .containsExactly("ncbigene:5888");
            softly.assertThat(genes("p53 in tumours.", "HIV-infected patients and HIV-positive donors.", "p53"))
                    .as("a patient's state")
                    .containsExactly("ncbigene:7157");
            softly.assertThat(genes(
                            "p53 in tumours.",
                            "p53 expressed in E. coli bound DNA, as did p53 purified from Escherichia coli.",
                            "p53"))
                    .as("an expression host")
                    .containsExactly("ncbigene:7157", "ncbigene:7157", "ncbigene:7157");
            softly.assertThat(genes("p53 in tumours.", "Tobacco smokers and tobacco chewers were studied.", "p53"))
                    .as("a product")
                    .containsExactly("ncbigene:7157");
            softly.assertThat(genes("p53 in tumours.", "Base excision repair (BER) needs p53; BER was slow.", "p53"))
                    .as("an abbreviation the document defines as something else")
                    .containsExactly("ncbigene:7157", "ncbigene:7157");
        });
    }

    @Test
    void aParagraphsSpeciesIsTheOneNamedBeforeTheMention() {
        assertThat(genes("x", "Mice were studied. Then p53 rose. Patients were studied.", "p53"))
                .containsExactly("ncbigene:22059");
        assertThat(genes("x", "Then p53 rose. Patients were studied.", "p53"))
                .as("else the one named after it")
                .containsExactly("ncbigene:7157");
    }

    @Test
    void aSymbolsWrittenFormOutweighsEvidenceFromOutsideItsSentence() {
        // patients are the most named, and the last named before the mention
        assertThat(genes(
                        "x",
                        "Patients and patients were studied. Mice were bred. Patients again. Brca1 rose.",
                        "Brca1"))
                .containsExactly("ncbigene:12189");
    }

    @Test
    void aNameGivenItsSpeciesOnTheMentionKeepsItWhereTheEvidenceIsWeaker() {
        assertThat(genes("x", "Human p53 was expressed in mice. Then p53 rose.", "p53"))
                .containsExactly("ncbigene:7157", "ncbigene:7157");
    }

    @Test
    void aSymbolTwoGenesOfOneSpeciesShareIsTheCodingGeneWhoseOtherNamesTheDocumentUses() {
        assertThat(genes(
                        "x",
                        "Protease-activated receptors in the bladder: PAR1-deficient mice had less edema.",
                        "PAR1"))
                .as("F2r, proteinase-activated receptor 1")
                .containsExactly("ncbigene:14062");
        assertThat(genes(
                        "x",
                        "MAP/microtubule affinity-regulating kinases set cell polarity: PAR1 in mice phosphorylates tau.",
                        "PAR1"))
                .as("Mark2")
                .containsExactly("ncbigene:13728");
        assertThat(genes("x", "PAR1 in mice.", "PAR1"))
                .as("a protein-coding gene before the non-coding Par1 its preferred name names")
                .containsExactly("ncbigene:13728");
    }

    @Test
    void aNameOnlyTheHumanGeneHasIsItsOrthologInAMouseStudy() {
        assertThat(genes("x", "Fas ligand killed the T cells of the mice.", "Fas ligand"))
                .containsExactly("ncbigene:14103");
        assertThat(genes("x", "Fas ligand killed the T cells of the patients.", "Fas ligand"))
                .containsExactly("ncbigene:356");
    }

    @Test
    void aGeneOfASpeciesOutsideTheGeneVocabularyIsReachedByTheTrainingCorpusNames() {
        assertThat(genes("x", "BDNF rose in the hippocampus of the rats.", "BDNF"))
                .containsExactly("ncbigene:24225");
        assertThat(genes("x", "BDNF rose in the hippocampus of the patients.", "BDNF"))
                .containsExactly("ncbigene:627");
    }

    @Test
    void theGeneSpeciesOptionRestrictsGenesToTheTaxaGiven(@TempDir Path own) {
        EntityLinker mouseOnly =
                TinyVocabularies.linker(own, List.of(TinyVocabularies.MOUSE), TinyVocabularies.genes());
        assertThat(genes(mouseOnly, "x", "Levels of p53 rose in the patients.", "p53"))
                .containsExactly("ncbigene:22059");
        assertThat(genes(mouseOnly, "x", "RAD51 foci in the patients.", "RAD51"))
                .as("no mouse gene of the name")
                .containsOnlyNulls();
        assertThat(genes(mouseOnly, "x", "hGR in the patients.", "hGR"))
                .as("a human initial names a species the option leaves out")
                .containsOnlyNulls();
    }
}
