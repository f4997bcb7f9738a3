package dev.bionerstream.linking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.text.DocumentText;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A chemical written as an element's symbol is that element, whatever else the key's letters name. */
class ElementSymbolsTest {
    private static final EntityLinker SHIPPED = Linkers.shared(LinkSettings.shipped());

    @Test
    void twoLetterSymbolsAsChemistsWriteThemWithOrWithoutACharge() {
        assertThat(ElementSymbols.element("Pb")).isEqualTo("lead");
        assertThat(ElementSymbols.element("Ca2+")).isEqualTo("calcium");
        assertThat(ElementSymbols.element("Cl-")).isEqualTo("chlorine");
        assertThat(ElementSymbols.element("PB")).as("capitals: an abbreviation").isNull();
        assertThat(ElementSymbols.element("pb")).isNull();
        assertThat(ElementSymbols.element("Cr"))
                .as("creatinine as often as chromium")
                .isNull();
        assertThat(ElementSymbols.element("I"))
                .as("one letter: a numeral as often")
                .isNull();
    }

    @Test
    void leadIsNotPhenobarbitalWhereTheTextWritesItsSymbol() {
        String text = "Blood Pb and Cd2+ levels were high in children given PB.";
        List<Link> links = SHIPPED.link(
                DocumentText.of(text),
                List.of(
                        new Mention("chemical", "Pb", text.indexOf("Pb")),
                        new Mention("chemical", "Cd2+", text.indexOf("Cd2+")),
                        new Mention("chemical", "PB", text.indexOf("PB"))));
        assertThat(links.get(0).id()).as("Pb: Lead").isEqualTo("mesh:D007854");
        assertThat(links.get(1).id()).as("Cd2+: Cadmium").isEqualTo("mesh:D002104");
        assertThat(links.get(2).id()).as("PB: Phenobarbital").isEqualTo("mesh:D010634");
    }
}
