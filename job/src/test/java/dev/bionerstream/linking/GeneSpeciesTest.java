package dev.bionerstream.linking;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A gene is the gene of the species its text names for it, on the shipped vocabularies (NCBI Gene
 * for human and mouse): the abstracts of the issue that found another species' gene where the honest
 * answer was the text's own species, or none.
 */
class GeneSpeciesTest {
    private static final EntityLinker SHIPPED = ShippedLinkerTest.SHIPPED;

    private static List<String> genes(String title, String abstractText, String... genes) {
        return GeneSpeciesRulesTest.genes(SHIPPED, title, abstractText, genes);
    }

    @Test
    void aYeastGeneIsNilNotTheHumanGeneOfItsName() {
        List<String> ids = genes(
                "Cell cycle control in Saccharomyces cerevisiae.",
                "In budding yeast, the CDC28 kinase and the G1 cyclin CLN3 regulate Start; deletion of SIC1 delays"
                        + " the onset of S phase. Yeast RAD51 is needed for the repair of the breaks.",
                "CDC28",
                "CLN3",
                "SIC1",
                "RAD51");
        assertThat(ids).hasSize(4).containsOnlyNulls();
        // the same symbols in a study of patients are the human genes
        assertThat(genes("RAD51 in patients.", "RAD51 foci were counted in tumours of the patients.", "RAD51"))
                .containsOnly("ncbigene:5888");
    }

    @Test
    void aFlyGeneIsNil() {
        List<String> ids = genes(
                "A Drosophila insulin-like peptide promotes growth during nonfeeding states.",
                "In Drosophila melanogaster, growth is mediated by seven insulin-like peptides acting through the"
                        + " insulin receptor InR and the transcription factor dFOXO; Notch signalling shapes the wing disc.",
                "InR",
                "dFOXO",
                "Notch");
        assertThat(ids).hasSize(3).containsOnlyNulls();
    }

    @Test
    void aHumanGeneStaysHumanInAHumanStudyThatNamesMiceOnceForAXenograft() {
        List<String> ids = genes(
                "DACH1 is silenced in glioma and inhibits the growth of glioma cells.",
                "DACH1, on chromosome 13q21, was expressed at low levels in gliomas. In U87 cells, DACH1 slowed"
                        + " proliferation, and DACH1 knock-down enhanced it. Xenografts of DACH1-expressing U87 cells"
                        + " grew more slowly in nude mice. Loss of DACH1 marks a poor prognosis.",
                "DACH1");
        assertThat(ids).hasSize(6).containsOnly("ncbigene:1602");
    }

    @Test
    void aSymbolWrittenAsHumanSymbolsAreIsHumanWhereTheMouseIsNamedOnce() {
        List<String> ids = genes(
                "BRCA1 in breast and ovarian cancer.",
                "Germline mutations of BRCA1 predispose women to breast and ovarian cancer. Mice lacking Brca1 in"
                        + " the mammary epithelium develop tumours. BRCA1 is needed for homologous recombination.",
                "BRCA1",
                "Brca1");
        assertThat(ids).containsExactly("ncbigene:672", "ncbigene:672", "ncbigene:12189", "ncbigene:672");
    }

    @Test
    void aSpeciesNamedOnTheGeneDecides() {
        assertThat(genes("x", "The human L-FABP and mouse Brca1 were studied in rats.", "L-FABP", "Brca1"))
                .containsExactly("ncbigene:2168", "ncbigene:12189");
    }

    @Test
    void speciesNamesThatSayNothingOfTheGenesSpeciesAreNotEvidence() {
        // a method ("yeast two-hybrid"), a host ("nude mice"), a word of prose ("the MAPK family")
        assertThat(genes(
                        "Ataxin-3 interacts with HHR23A.",
                        "A yeast two-hybrid screen found that ataxin-3 binds HHR23A.",
                        "HHR23A"))
                .containsOnly("ncbigene:5886");
        assertThat(genes("x", "JNK is a member of the MAPK family; CD74 binds MIF.", "CD74"))
                .containsOnly("ncbigene:972");
    }
}
