package dev.bionerstream.linking;

import static dev.bionerstream.linking.ShippedLinkerTest.id;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bionerstream.text.DocumentText;
import java.io.BufferedReader;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Species beyond LINNAEUS's dictionary: every named taxon of NCBI Taxonomy, looked up exactly, and
 * the species rather than a subspecies when the text names the species.
 */
class TaxonomyTest {
    private static TaxonNames names(String tsv) throws Exception {
        return TaxonNames.read(new BufferedReader(new StringReader("tax_id\tname\n" + tsv)));
    }

    @Test
    void aNameFindsItsTaxonWhateverItsCaseAndAKeyTwoTaxaShareGoesToTheOneItIsTheScientificNameOf() throws Exception {
        TaxonNames t = names("10579\tHuman papillomavirus type 8\n10579\tHPV8\n"
                + "11084\tTick-borne encephalitis virus\n11084\tTBEV\n"
                + "20000\tHPV8 relative\n20000\tHPV8\n");
        assertThat(t.exact(NameKey.of("human papillomavirus type 8")).id()).isEqualTo("ncbitaxon:10579");
        assertThat(t.exact(NameKey.of("TBEV")).name()).isEqualTo("Tick-borne encephalitis virus");
        assertThat(t.exact(NameKey.of("HPV8")).id())
                .as("a synonym of two taxa: the smaller id")
                .isEqualTo("ncbitaxon:10579");
        assertThat(t.exact(NameKey.of("HPV8 relative")).id()).isEqualTo("ncbitaxon:20000");
        assertThat(t.exact(NameKey.of("HPV9"))).isNull();
        assertThat(t.has(11084)).isTrue();
        assertThat(t.has(11085)).isFalse();
        assertThat(t.size()).isEqualTo(3);
    }

    @Test
    void taxaOutOfOrderOrALineWithoutItsNameAreNamedErrors() {
        assertThatThrownBy(() -> names("11084\tTBEV\n10579\tHPV8\n")).hasMessageContaining("10579 is late");
        assertThatThrownBy(() -> names("11084 TBEV\n")).hasMessageContaining("expected tax_id<TAB>name");
    }

    @Test
    void aNameOnlyTheTaxonomyHasLinksToItsTaxonAndTheSpeciesVocabularysOwnNamesComeFirst(@TempDir Path dir) {
        EntityLinker tiny = TinyVocabularies.linker(dir, TinyVocabularies.species());
        assertThat(tinyId(tiny, "TBEV")).isEqualTo("ncbitaxon:11084");
        assertThat(tinyId(tiny, "TICK-BORNE ENCEPHALITIS VIRUS")).isEqualTo("ncbitaxon:11084");
        assertThat(tinyId(tiny, "human")).isEqualTo("ncbitaxon:9606");
        assertThat(tiny.vocabularies().get("species").has("ncbitaxon:11084")).isTrue();
        assertThat(tiny.vocabularies().get("species").has("ncbitaxon:11085")).isFalse();
    }

    @Test
    void theSpeciesRankRuleOnATinyVocabulary(@TempDir Path dir) {
        EntityLinker tiny = TinyVocabularies.linker(dir, TinyVocabularies.species());
        // LINNAEUS's "maize" is the subspecies; the species, Zea mays, only NCBI Taxonomy names
        assertThat(tinyId(tiny, "maize")).isEqualTo("ncbitaxon:4577");
        assertThat(tinyId(tiny, "Zea mays")).isEqualTo("ncbitaxon:4577");
        assertThat(tinyId(tiny, "Zea mays subsp. mays")).as("named as such").isEqualTo("ncbitaxon:381124");
    }

    private static String tinyId(EntityLinker linker, String mention) {
        return linker.link(DocumentText.of(mention), List.of(new Mention("species", mention, 0)))
                .get(0)
                .id();
    }

    @Test
    void virusesAndStrainsLinkToTheirTaxonOnTheShippedVocabularies() {
        assertThat(id("species", "Tick-borne encephalitis virus")).isEqualTo("ncbitaxon:11084");
        assertThat(id("species", "Human papillomavirus type 8")).isEqualTo("ncbitaxon:10579");
        assertThat(id("species", "Human betaherpesvirus 5")).isEqualTo("ncbitaxon:10359");
        assertThat(id("species", "Hepacivirus C")).isEqualTo("ncbitaxon:11103");
        assertThat(id("species", "Vibrio cholerae V52"))
                .as("a strain the text writes by its code")
                .isEqualTo("ncbitaxon:345076");
        assertThat(ShippedLinkerTest.SHIPPED.vocabularies().get("species").taxonomySize())
                .isGreaterThan(850_000);
    }

    @Test
    void theTextNamesTheSpeciesNotItsSubspeciesUnlessItSaysSo() {
        assertThat(id("species", "maize")).isEqualTo("ncbitaxon:4577");
        assertThat(id("species", "Zea mays")).isEqualTo("ncbitaxon:4577");
        assertThat(id("species", "Zea mays subsp. mays")).isEqualTo("ncbitaxon:381124");
    }
}
