package dev.bionerstream.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SentenceSplitterTest {
    private final SentenceSplitter splitter = new SentenceSplitter();

    private List<String> sentences(String text) {
        List<Sentence> out = splitter.split(text);
        for (Sentence s : out) {
            assertThat(text.substring(s.start(), s.end())).isEqualTo(s.text());
        }
        return out.stream().map(Sentence::text).toList();
    }

    @Test
    void keepsBiomedicalAbbreviationsNumbersAndSpeciesTogether() {
        String text = "Rats received 0.5 mg/kg of cis-diamminedichloroplatinum(II) (cisplatin), i.e. a low dose, "
                + "as described by Smith et al. (Fig. 2). Growth of E. coli and S. aureus was inhibited vs. controls. "
                + "Levels of 1,25-(OH)2D3 rose 2.5-fold (p < 0.01).";
        assertThat(sentences(text))
                .containsExactly(
                        "Rats received 0.5 mg/kg of cis-diamminedichloroplatinum(II) (cisplatin), i.e. a low dose, "
                                + "as described by Smith et al. (Fig. 2).",
                        "Growth of E. coli and S. aureus was inhibited vs. controls.",
                        "Levels of 1,25-(OH)2D3 rose 2.5-fold (p < 0.01).");
    }

    @Test
    void splitsAStructuredAbstractAtItsSentences() {
        // BC5CDR test abstract style (PMID 2234245 style text, shortened)
        String text = "BACKGROUND: Nifedipine is a calcium antagonist. METHODS: Twelve patients with "
                + "hypertension were studied, e.g. by Doppler. RESULTS: Blood pressure fell in 10 patients.";
        assertThat(sentences(text))
                .containsExactly(
                        "BACKGROUND: Nifedipine is a calcium antagonist.",
                        "METHODS: Twelve patients with hypertension were studied, e.g. by Doppler.",
                        "RESULTS: Blood pressure fell in 10 patients.");
    }

    @Test
    void offsetsSurviveLeadingAndRepeatedWhitespace() {
        String text = "  Naloxone reverses the effect.\n\n  Clonidine   did not.  ";
        List<Sentence> s = splitter.split(text);
        assertThat(s)
                .extracting(Sentence::text)
                .containsExactly("Naloxone reverses the effect.", "Clonidine   did not.");
        assertThat(s.get(1).start()).isEqualTo(text.indexOf("Clonidine"));
        assertThat(s).extracting(Sentence::index).containsExactly(0, 1);
    }

    @Test
    void emptyAndBlankTextsHaveNoSentences() {
        assertThat(splitter.split("")).isEmpty();
        assertThat(splitter.split("   \n ")).isEmpty();
    }
}
