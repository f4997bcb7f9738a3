package dev.bionerstream.syntax;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Seed 003's example sentence through the annotator: each kind's contexts of "congenital". */
class OpenNlpAnnotatorTest {
    static final String SENTENCE = "This case is a paternally transmitted congenital myotonic dystrophy .";
    static final int CONGENITAL = 6;

    static WordSyntax annotated() {
        return OpenNlpAnnotator.shared().annotate(SENTENCE);
    }

    @Test
    void posGivesTheWordAndItsNeighboursWithTheirTags() {
        List<Context> c = annotated().contexts().get(SyntaxKind.POS).get(CONGENITAL);
        assertThat(c).extracting(Context::index).containsExactly(6, 5, 7);
        assertThat(c.get(0).label()).isEqualTo("JJ");
    }

    @Test
    void chunksGiveTheWordsOfTheNounPhrase() {
        List<Context> c = annotated().contexts().get(SyntaxKind.CHUNK).get(CONGENITAL);
        assertThat(c.get(0).index()).isEqualTo(CONGENITAL);
        assertThat(c).extracting(Context::index).contains(8); // dystrophy, the head of the phrase
        assertThat(c).extracting(Context::label).allMatch(l -> l.endsWith("-NP"));
    }

    @Test
    void dependenciesFormATreeAndTheModifierHangsOnItsHead() {
        WordSyntax s = annotated();
        List<List<Context>> dep = s.contexts().get(SyntaxKind.DEP);
        assertThat(dep.get(CONGENITAL)).extracting(Context::index).containsExactly(CONGENITAL, 8);
        long roots = dep.stream().filter(c -> c.get(0).label().equals("root")).count();
        assertThat(roots).isEqualTo(1);
        assertThat(s.words()).hasSize(10);
    }

    @Test
    void wordsSplitPunctuationAsTheBertPreTokenizerDoes() {
        assertThat(Words.spans("IFN-α (2 mg)"))
                .extracting(a -> a[0] + ":" + a[1])
                .containsExactly("0:3", "3:4", "4:5", "6:7", "7:8", "9:11", "11:12");
        assertThat(OpenNlpAnnotator.shared().annotate("  ").words()).isEmpty();
    }

    @Test
    void headRulesAttachEveryWordToOneGovernorWithoutCycles() {
        String[] tags = {"NN", "IN", "JJ", "NN", "VBZ", "RB", "."};
        String[] chunks = {"B-NP", "B-PP", "B-NP", "I-NP", "B-VP", "B-ADVP", "O"};
        HeadRules r = HeadRules.parse(tags, chunks);
        assertThat(r.relation(4)).isEqualTo("root");
        assertThat(r.governor(1)).isEqualTo(0); // "of" hangs on the noun before it
        assertThat(r.governor(3)).isEqualTo(1); // the noun after a preposition is its object
        assertThat(r.relation(3)).isEqualTo("pobj");
        assertThat(r.governor(2)).isEqualTo(3); // inside a noun phrase, on its last word
        assertThat(r.relation(0)).isEqualTo("nsubj");
        assertThat(r.relation(6)).isEqualTo("punct");
        for (int i = 0; i < tags.length; i++) {
            int steps = 0;
            for (int k = i; k != 4; k = r.governor(k)) {
                assertThat(++steps).as("word %d reaches the root", i).isLessThan(tags.length);
            }
        }
    }
}
