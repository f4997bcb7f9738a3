package dev.bionerstream.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The gene span conventions on spans the model writes as BC2GM does (from tmVar3 abstracts). */
class GeneSpansTest {
    private static String pubtator(String type, String sentence, String span) {
        int start = sentence.indexOf(span);
        int[] written = GeneSpans.PUBTATOR.apply(type, sentence, start, start + span.length());
        return written == null ? null : sentence.substring(written[0], written[1]);
    }

    @Test
    void theGeneAloneWithoutTheWordThatSaysWhatPartOfItIsMeant() {
        String s = "The ACE gene I/D polymorphism, the APOE promoter, the D allele, MEN1 gene mutations and TP53 mRNA.";
        assertThat(pubtator("gene", s, "ACE gene")).isEqualTo("ACE");
        assertThat(pubtator("gene", s, "APOE promoter")).isEqualTo("APOE");
        assertThat(pubtator("gene", s, "MEN1 gene")).isEqualTo("MEN1");
        assertThat(pubtator("gene", s, "TP53 mRNA")).isEqualTo("TP53");
        assertThat(pubtator("gene", "the BRCA1 and BRCA2 genes", "BRCA1 and BRCA2 genes"))
                .isEqualTo("BRCA1 and BRCA2");
        assertThat(pubtator("gene", "the CYP2D6 gene promoter", "CYP2D6 gene promoter"))
                .as("every trailing word of the kind")
                .isEqualTo("CYP2D6");
        assertThat(pubtator("gene", s, "D allele"))
                .as("an allele named by its letter is no gene")
                .isNull();
    }

    @Test
    void variantsResiduesAndTermsOfGeneticsAreNoGenes() {
        for (String notAGene : new String[] {
            "R114H",
            "V600E",
            "Lys198Asn",
            "Arg",
            "Gln",
            "Arg114",
            "p.Arg114His",
            "c.341A>G",
            "rs1801133",
            "LOH",
            "SNP",
            "SNPs"
        }) {
            assertThat(pubtator("gene", "x " + notAGene + " y", notAGene))
                    .as(notAGene)
                    .isNull();
        }
        for (String gene : new String[] {"E2F", "C3G", "H2A", "Met", "p53", "HER2", "IL-6", "TNF-alpha"}) {
            assertThat(pubtator("gene", "x " + gene + " y", gene)).as(gene).isEqualTo(gene);
        }
    }

    @Test
    void onlyGenesAndOnlyInThePubTatorConvention() {
        String s = "the gene therapy";
        assertThat(pubtator("disease", "ACE gene", "ACE gene")).isEqualTo("ACE gene");
        assertThat(GeneSpans.AS_DECODED.apply("gene", "ACE gene", 0, 8)).containsExactly(0, 8);
        assertThat(GeneSpans.PUBTATOR.apply("gene", s, 4, 8))
                .as("a span that is the word alone stays")
                .containsExactly(4, 8);
        assertThat(GeneSpans.PUBTATOR.toString()).isEqualTo("pubtator");
        assertThat(GeneSpans.AS_DECODED.toString()).isEqualTo("as-decoded");
    }
}
