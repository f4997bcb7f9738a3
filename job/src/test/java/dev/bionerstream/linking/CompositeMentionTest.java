package dev.bionerstream.linking;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CompositeMentionTest {
    @Test
    void aConjunctBorrowsTheHeadOfTheLastOne() {
        assertThat(CompositeMention.parts("breast and ovarian cancer"))
                .containsExactly("breast cancer", "ovarian cancer");
        assertThat(CompositeMention.parts("type 1 and type 2 diabetes"))
                .containsExactly("type 1 diabetes", "type 2 diabetes");
        assertThat(CompositeMention.parts("Saethre-Chotzen, Crouzon, and Pfeiffer syndromes"))
                .containsExactly("Saethre-Chotzen syndromes", "Crouzon syndromes", "Pfeiffer syndromes");
        assertThat(CompositeMention.parts("hypertension or diabetes")).containsExactly("hypertension", "diabetes");
    }

    @Test
    void aNameWithoutCoordinationHasNoParts() {
        assertThat(CompositeMention.parts("Duchenne muscular dystrophy")).isEmpty();
        assertThat(CompositeMention.parts("2,4-dinitrophenol")).isEmpty();
        assertThat(CompositeMention.parts("5-HT1A")).isEmpty();
    }
}
