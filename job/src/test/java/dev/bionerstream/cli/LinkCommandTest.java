package dev.bionerstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./bioner link}: PubTator in, the same PubTator out with the concept column filled. */
class LinkCommandTest {
    static final String DOCUMENT =
            """
            227508|t|Naloxone reverses the antihypertensive effect of clonidine in mice.
            227508|a|In hypertensive rats and patients with iodide transport defect (ITD), naloxone acted; qwxzv did not.
            227508\t0\t8\tNaloxone\tChemicalEntity\t-
            227508\t49\t58\tclonidine\tChemicalEntity
            227508\t62\t66\tmice\tOrganismTaxon\t10090
            227508\t107\t130\tiodide transport defect\tDiseaseOrPhenotypicFeature\t-\textra column
            227508\t132\t135\tITD\tDiseaseOrPhenotypicFeature\t-
            227508\t154\t159\tqwxzv\tChemicalEntity\t-
            227508\t84\t88\trats\tCellLine\tkeep-me
            227508\tAssociation\tD009270\tD003000\tNovel

            """;

    @TempDir
    Path dir;

    @Test
    void linksEachMentionAndLeavesEveryOtherByteAsItCame() throws Exception {
        Path in = Files.writeString(dir.resolve("in.pubtator"), DOCUMENT);
        Path out = dir.resolve("out.pubtator");
        assertThat(link(
                        in,
                        out,
                        "--types",
                        "ChemicalEntity=chemical,DiseaseOrPhenotypicFeature=disease,OrganismTaxon=species"))
                .isZero();
        List<String> lines = Files.readAllLines(out);
        assertThat(lines)
                .containsExactly(
                        "227508|t|Naloxone reverses the antihypertensive effect of clonidine in mice.",
                        "227508|a|In hypertensive rats and patients with iodide transport defect (ITD), naloxone acted; qwxzv did not.",
                        "227508\t0\t8\tNaloxone\tChemicalEntity\tmesh:D009270",
                        "227508\t49\t58\tclonidine\tChemicalEntity\tmesh:D003000",
                        "227508\t62\t66\tmice\tOrganismTaxon\tncbitaxon:10090",
                        "227508\t107\t130\tiodide transport defect\tDiseaseOrPhenotypicFeature\tmesh:C564766\textra column",
                        "227508\t132\t135\tITD\tDiseaseOrPhenotypicFeature\tmesh:C564766",
                        "227508\t154\t159\tqwxzv\tChemicalEntity\t-",
                        "227508\t84\t88\trats\tCellLine\tkeep-me",
                        "227508\tAssociation\tD009270\tD003000\tNovel",
                        "");
    }

    @Test
    void aFileWhoseTypesAreNotOursIsAnErrorThatSaysHowToMapThem() throws Exception {
        Path in = Files.writeString(
                dir.resolve("biored.pubtator"), "1|t|Naloxone\n1|a|x\n1\t0\t8\tNaloxone\tChemicalEntity\t-\n");
        assertThat(link(in, dir.resolve("o"))).isEqualTo(2);
        assertThat(Files.exists(dir.resolve("o"))).isFalse();
        assertThat(link(in, dir.resolve("o"), "--types", "ChemicalEntity=chemical"))
                .isZero();
        assertThat(Files.readAllLines(dir.resolve("o"))).contains("1\t0\t8\tNaloxone\tChemicalEntity\tmesh:D009270");
    }

    @Test
    void pubTatorsCapitalisedTypeNamesAreOursWithoutAMapping() throws Exception {
        Path in = Files.writeString(
                dir.resolve("pubtator.txt"),
                "1|t|Naloxone in mice\n1|a|x\n1\t0\t8\tNaloxone\tChemical\t-\n1\t12\t16\tmice\tSpecies\t-\n");
        assertThat(link(in, dir.resolve("o"))).isZero();
        assertThat(Files.readAllLines(dir.resolve("o")))
                .contains("1\t0\t8\tNaloxone\tChemical\tmesh:D009270", "1\t12\t16\tmice\tSpecies\tncbitaxon:10090");
    }

    /** {@code ./bioner link --input in --out out} and more arguments; its exit code. */
    private static int link(Path in, Path out, String... more) {
        List<String> args = new ArrayList<>(List.of("link", "--input", in.toString(), "--out", out.toString()));
        args.addAll(List.of(more));
        return Main.run(args.toArray(String[]::new));
    }

    @Test
    void aMalformedLineIsAnErrorNamingItsNumber() throws Exception {
        for (String mention : List.of(
                "1\t0\tx\tTitle\tChemical", // an end that is not a number
                "1\tx5\t5\tTitle\tChemical\t-", // a start that is not a number
                "1\t-5\t5\tTitle\tChemical", // negative
                "1\t7\t2\tTitle\tChemical", // reversed
                "1\t6\t40\tText\tChemical", // past the end of the text
                "1\t6\t10\tTitle\tChemical")) { // not the text at its offsets ("Text")
            Path in = Files.writeString(dir.resolve("bad.pubtator"), "1|t|Title\n1|a|Text\n" + mention + "\n");
            assertThat(link(in, dir.resolve("o"))).as(mention).isEqualTo(2);
            assertThat(Files.exists(dir.resolve("o")))
                    .as("nothing written for " + mention)
                    .isFalse();
        }
    }
}
