package dev.bionerstream.linking;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AbbreviationsTest {
    @Test
    void aShortFormInParenthesesGetsTheWordsItSpells() {
        String text = "Patients with iodide transport defect (ITD) were studied. ITD is rare.";
        assertThat(Abbreviations.in(text))
                .containsEntry("ITD", new Abbreviations.Definition("iodide transport defect", 14))
                .hasSize(1);
        assertThat(Abbreviations.in("Heat shock protein (HSP) was induced.")
                        .get("HSP")
                        .longForm())
                .isEqualTo("Heat shock protein");
        assertThat(Abbreviations.in("in the central nervous system (CNS) and")
                        .get("CNS")
                        .longForm())
                .isEqualTo("central nervous system");
        assertThat(Abbreviations.in("mice given cyclophosphamide (CYA) daily")
                        .get("CYA")
                        .longForm())
                .isEqualTo("cyclophosphamide");
    }

    @Test
    void whatTheAuthorsAddAfterTheShortFormIsNotPartOfIt() {
        assertThat(Abbreviations.in("exposure to chronic hypoxia (CH, 10% O2) for two weeks")
                        .get("CH")
                        .longForm())
                .isEqualTo("chronic hypoxia");
        assertThat(Abbreviations.in("treated with 2,4-dichlorophenoxyacetic acid (2,4-D) daily"))
                .as("a comma without a space is the name's own")
                .containsOnlyKeys("2,4-D");
    }

    @Test
    void theFirstDefinitionOfAShortFormWins() {
        assertThat(Abbreviations.in("Alzheimer's disease (AD) differs. Atopic dermatitis (AD) too.")
                        .get("AD"))
                .isEqualTo(new Abbreviations.Definition("Alzheimer's disease", 0));
    }

    @Test
    void parenthesesThatAreNotAbbreviationsAreIgnored() {
        assertThat(Abbreviations.in("The dose (10 mg) was given (n = 12) twice (see above)."))
                .isEmpty();
        assertThat(Abbreviations.in("An unrelated phrase (XYZ) here.")).isEmpty();
    }
}
