package dev.bionerstream.linking;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NameKeyTest {
    @Test
    void casePunctuationAndHyphensDoNotMatter() {
        assertThat(NameKey.of("Naloxone Hydrochloride")).isEqualTo(NameKey.of("naloxone-hydrochloride"));
        assertThat(NameKey.of("Alzheimer's disease")).isEqualTo("alzheimer s disease");
        assertThat(NameKey.of("  (+/-)-Propranolol ")).isEqualTo("propranolol");
    }

    @Test
    void greekLettersAreSpelledOut() {
        assertThat(NameKey.of("TNF-α")).isEqualTo("tnf alpha").isEqualTo(NameKey.of("TNF alpha"));
        assertThat(NameKey.of("IFN-γ")).isEqualTo(NameKey.of("IFN-gamma"));
        assertThat(NameKey.of("β2-microglobulin")).isEqualTo(NameKey.of("beta 2 microglobulin"));
    }

    @Test
    void aGreekLetterGluedToAWordIsAWordOfItsOwn() {
        assertThat(NameKey.of("PKCalpha")).isEqualTo(NameKey.of("PKC-alpha")).isEqualTo("pkc alpha");
        assertThat(NameKey.of("TGFbeta1")).isEqualTo(NameKey.of("TGF-beta 1"));
        assertThat(NameKey.of("alpha")).isEqualTo("alpha");
    }

    @Test
    void lettersAndDigitsAreSeparateWords() {
        assertThat(NameKey.of("IL2")).isEqualTo(NameKey.of("IL-2")).isEqualTo("il 2");
        assertThat(NameKey.of("BRCA1")).isEqualTo("brca 1");
    }

    @Test
    void regularPluralsAreSingular() {
        assertThat(NameKey.of("Seizures")).isEqualTo(NameKey.of("seizure"));
        assertThat(NameKey.of("cardiomyopathies")).isEqualTo(NameKey.of("cardiomyopathy"));
        assertThat(NameKey.of("ovarian cancers")).isEqualTo(NameKey.of("ovarian cancer"));
        // words that only look plural keep their s
        assertThat(NameKey.of("virus")).isEqualTo("virus");
        assertThat(NameKey.of("diagnosis")).isEqualTo("diagnosis");
        assertThat(NameKey.of("stress")).isEqualTo("stress");
    }

    @Test
    void accentsAreDropped() {
        assertThat(NameKey.of("Sjögren syndrome")).isEqualTo(NameKey.of("Sjogren syndrome"));
    }
}
