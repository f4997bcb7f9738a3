package dev.bionerstream.text;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bionerstream.demo.DetokenizedSamples;
import dev.bionerstream.demo.SampleAbstracts;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The detokenizer's rules on real sentences of the corpora the samples come from. */
class DetokenizerTest {
    private static final Detokenizer ENGLISH = Detokenizer.forLanguage("eng");

    /** Sentences of the English (BC5CDR) and Spanish (PharmaCoNER) samples, as tokenized and as published. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "eng|the case of a 56 - year - old woman with chronic , severe heart failure"
                        + "|the case of a 56-year-old woman with chronic, severe heart failure",
                "eng|during one cycle of intermittent low dose ( 2 . 5 mcg / kg per min ) dobutamine ."
                        + "|during one cycle of intermittent low dose (2.5 mcg/kg per min) dobutamine.",
                "eng|trazodone , a 5 - HT 2A / 2C receptor antagonist|trazodone, a 5-HT2A/2C receptor antagonist",
                "eng|blocks 5 - HT 2A and 5 - HT 2C receptors|blocks 5-HT2A and 5-HT2C receptors",
                "eng|( n = 5 , 701 with a 5 - year lag )|(n = 5,701 with a 5-year lag)",
                "eng|infections ( p = 0 . 003 ) and|infections (p = 0.003) and",
                "eng|mean : 626 + / - 431 microg % )|mean: 626 +/- 431 microg%)",
                "eng|( mean : 2 . 6 + / - 1 . 3 days )|(mean: 2.6 +/- 1.3 days)",
                "eng|26 ( 81 % ) had various|26 (81%) had various",
                "eng|% , p < 0 . 05 ;|%, p < 0.05;",
                "eng|creatinine , > or = 132|creatinine, > or = 132",
                "eng|with stable Parkinson ' s disease who|with stable Parkinson's disease who",
                "eng|in Graves ' disease patients treated|in Graves' disease patients treated",
                "eng|effects can be \" softly \" deduced|effects can be \"softly\" deduced",
                "eng|The extent of ' flattened ' affect with pergolide|The extent of 'flattened' affect with pergolide",
                "eng|the patients ' scores for|the patients' scores for",
                "eng|and 5 ' - N|and 5'-N",
                "eng|block pre - and postsynaptic striatal D2|block pre- and postsynaptic striatal D2",
                "eng|were matched ( 1 : 4 ) to 1 , 908 controls .|were matched (1:4) to 1,908 controls.",
                "eng|tempol ( 30 , 100 , and 300 micromol / kg )|tempol (30, 100, and 300 micromol/kg)",
                "eng|( 0 , 30 , 60 , 120 minutes )|(0, 30, 60, 120 minutes)",
                "eng|gemcitabine 1 , 000 mg / m ( 2 ) day|gemcitabine 1,000 mg/m(2) day",
                "eng|Geisser correction : F ( 3 , 762 ) = 2 . 85 , P = . 009|"
                        + "Geisser correction: F (3, 762) = 2.85, P = .009",
                "eng|antagonist L - 365 , 260 ( 10ug , i . c . v . )|antagonist L-365,260 (10ug, i.c.v.)",
                "eng|agent , remoxipride [ ( S ) - ( - ) - 3 - bromo|agent, remoxipride [(S)-(-)-3-bromo",
                "eng|[ 35S ] GTPgammaS binding|[35S] GTPgammaS binding",
                "eng|K ( + ) channels|K(+) channels",
                "eng|intracellular Ca2 + overload|intracellular Ca2+ overload",
                "eng|CD4 + T - cell counts|CD4+ T-cell counts",
                "eng|weight ( R = - 0 . 99 ,|weight (R = -0.99,",
                "eng|( - 18 . 48 + 1 . 72 % vs . - 15 . 96 + 1 . 6 % )|(-18.48 + 1.72% vs. -15.96 + 1.6%)",
                "eng|representation of Asians ?|representation of Asians?",
                "spa|alfa - fetoproteina 2 , 2 ng / ml , beta|alfa-fetoproteina 2,2 ng/ml, beta",
                "spa|de 1 , 5 cm de diámetro|de 1,5 cm de diámetro",
                "spa|anecoica ( 2x1 . 8x1 . 5cm ) con|anecoica (2x1.8x1.5cm) con",
                "spa|antecedentes personales : criptorquidia|antecedentes personales: criptorquidia",
                "spa|a los 6 y 8 años respectivamente , en otro centro .|a los 6 y 8 años respectivamente, en otro centro.",
            })
    void restoresPublishedSpacing(String language, String tokenized, String published) {
        assertThat(Detokenizer.forLanguage(language).apply(tokenized)).isEqualTo(published);
    }

    @Test
    void offsetsMapOntoTheDetokenizedText() {
        String tokenized = "a 5 - HT 2A / 2C receptor ( 2 . 5 mcg / kg ) .";
        Detokenizer.Result r = ENGLISH.detokenize(tokenized);
        assertThat(r.text()).isEqualTo("a 5-HT2A/2C receptor (2.5 mcg/kg).");
        assertThat(span(r, tokenized, "5 - HT 2A / 2C receptor")).isEqualTo("5-HT2A/2C receptor");
        assertThat(span(r, tokenized, "mcg / kg")).isEqualTo("mcg/kg");
        assertThat(span(r, tokenized, "2 . 5")).isEqualTo("2.5");
        assertThat(r.map(tokenized.length())).isEqualTo(r.text().length());
    }

    @Test
    void aDetokenizedRecordKeepsItsFieldsAndItsGoldSpansCoverTheSameWords() throws Exception {
        String line = "{\"id\": \"BC5CDR-test-0001\", \"title\": \"Torsade de pointes during low dose ( 2 . 5 mcg"
                + " / kg per min ) dobutamine .\", \"abstract\": \"a 5 - HT 2A receptor .\", \"journal\": null,"
                + " \"publicationDate\": null, \"source\": \"BC5CDR\", \"language\": \"eng\", \"gold\":"
                + " [{\"field\": \"TITLE\", \"type\": \"chemical\", \"start\": 62, \"end\": 72},"
                + " {\"field\": \"ABSTRACT\", \"type\": \"gene\", \"start\": 2, \"end\": 20}]}";
        JsonNode out = new ObjectMapper().readTree(DetokenizedSamples.rewrite(line));
        assertThat(out.get("title").asText())
                .isEqualTo("Torsade de pointes during low dose (2.5 mcg/kg per min) dobutamine.");
        assertThat(out.get("abstract").asText()).isEqualTo("a 5-HT2A receptor.");
        assertThat(out.get("journal").isNull()).isTrue();
        assertThat(out.get("id").asText()).isEqualTo("BC5CDR-test-0001");
        assertThat(covered(out, 0)).isEqualTo("dobutamine");
        assertThat(covered(out, 1)).isEqualTo("5-HT2A receptor");
    }

    /** The shipped samples are published text already: the rules change nothing in them. */
    @Test
    void theShippedSamplesAreDetokenized() throws Exception {
        ObjectMapper json = new ObjectMapper();
        for (String resource : List.of(SampleAbstracts.RESOURCE, SampleAbstracts.SPANISH_RESOURCE)) {
            for (String line : SampleAbstracts.load(resource, Integer.MAX_VALUE)) {
                JsonNode n = json.readTree(line);
                Detokenizer rules = Detokenizer.forLanguage(n.get("language").asText());
                for (String field : List.of("title", "abstract")) {
                    String text = n.get(field).asText();
                    assertThat(rules.apply(text))
                            .as("%s %s", n.get("id").asText(), field)
                            .isEqualTo(text);
                    assertThat(text).as("%s %s", n.get("id").asText(), field).doesNotContain(" , ", " . ", " - ");
                }
                for (JsonNode g : n.get("gold")) {
                    String covered = covered(n, g);
                    assertThat(covered)
                            .as("gold span of %s: %s", n.get("id").asText(), g)
                            .isNotBlank()
                            .doesNotStartWith(" ")
                            .doesNotEndWith(" ");
                }
            }
        }
    }

    private static String span(Detokenizer.Result r, String tokenized, String words) {
        int start = tokenized.indexOf(words);
        return r.text().substring(r.map(start), r.map(start + words.length()));
    }

    private static String covered(JsonNode record, int i) {
        return covered(record, record.get("gold").get(i));
    }

    private static String covered(JsonNode record, JsonNode g) {
        String text = record.get(g.get("field").asText().equals("TITLE") ? "title" : "abstract")
                .asText();
        return text.substring(g.get("start").asInt(), g.get("end").asInt());
    }
}
