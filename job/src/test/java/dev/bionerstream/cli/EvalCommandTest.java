package dev.bionerstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.model.TestBundles;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code eval}'s measures are subcommands, each with its own options and help; the forms from before
 * ({@code eval --iob}, {@code eval --linking}) stop with the command that replaced them.
 */
class EvalCommandTest {
    @TempDir
    Path dir;

    private static RunCommandTest.Result run(String... args) {
        return RunCommandTest.run(args);
    }

    @Test
    void evalsHelpNamesBothMeasuresWithExamples() {
        RunCommandTest.Result r = run("eval", "--help");
        assertThat(r.exit()).isZero();
        assertThat(r.out())
                .containsPattern("\\n  ner +Precision, recall and F1 of the model")
                .containsPattern("\\n  linking +Accuracy of the linker")
                .contains("./bioner eval ner --iob", "./bioner eval linking --pubtator")
                .doesNotContain("--iob=", "--link.bundles");
    }

    @Test
    void linkingsHelpListsItsOwnOptionsAndTheLinkersAndTheModels() {
        RunCommandTest.Result r = run("eval", "linking", "--help");
        assertThat(r.exit()).isZero();
        assertThat(r.out())
                .contains("Usage: bioner eval linking", "--pubtator=FILE", "--types=CORPUS_TYPE=type,...")
                .contains("--gold-mentions-only", "--misses=FILE.tsv", "--link.bundles", "--bundle, --model.bundle")
                .doesNotContain("--iob", "--linking");
    }

    @Test
    void nersHelpListsItsOwnOptionsAndTheModelsOnly() {
        RunCommandTest.Result r = run("eval", "ner", "--help");
        assertThat(r.exit()).isZero();
        assertThat(r.out())
                .contains("Usage: bioner eval ner", "--iob=FILE", "--types=CORPUS_TYPE=type,...", "--gene-spans")
                .doesNotContain("--pubtator", "--link.", "--gold-mentions-only", "--misses", "--linking");
    }

    @Test
    void theOldFormsStopWithTheCommandThatReplacedThem() {
        RunCommandTest.Result linking = run(
                "eval", "--linking", "--pubtator", "test.gz", "--types", "Chemical=chemical", "--gold-mentions-only");
        assertThat(linking.exit()).isEqualTo(2);
        assertThat(linking.out()).isEmpty();
        assertThat(linking.err())
                .contains("eval --linking is eval linking now")
                .contains("./bioner eval linking --pubtator test.gz --types Chemical=chemical --gold-mentions-only");

        RunCommandTest.Result ner =
                run("eval", "--bundle", "my bundle", "--iob", "test.tsv", "--types", "Disease=disease");
        assertThat(ner.exit()).isEqualTo(2);
        assertThat(ner.err())
                .contains("eval --iob is eval ner now")
                .contains("./bioner eval ner --bundle 'my bundle' --iob test.tsv --types Disease=disease");
    }

    @Test
    void anOptionBeforeTheMeasureIsRefusedNotIgnored() {
        RunCommandTest.Result r =
                run("eval", "--bundle", "x", "ner", "--iob", "test.tsv", "--types", "Disease=disease");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("Unknown options: '--bundle', 'x'").doesNotContain("eval ner now");
    }

    @Test
    void evalWithoutAMeasureOrAMeasureWithoutItsCorpusIsAUsageError() {
        RunCommandTest.Result none = run("eval");
        assertThat(none.exit()).isEqualTo(2);
        assertThat(none.err()).contains("Missing required subcommand", "./bioner eval --help");
        RunCommandTest.Result noCorpus = run("eval", "ner", "--types", "Disease=disease");
        assertThat(noCorpus.exit()).isEqualTo(2);
        assertThat(noCorpus.err()).contains("--iob=FILE", "./bioner eval ner --help");
    }

    @Test
    void nerScoresAModelOnAnIobFile() throws Exception {
        Path iob = Files.writeString(
                dir.resolve("test.tsv"), "Naloxone\tB-Chemical\nreverses\tO\nseizures\tB-Disease\n.\tO\n\n");
        RunCommandTest.Result r = run(
                "eval",
                "ner",
                "--bundle",
                TestBundles.path("tiny-gated").toString(),
                "--iob",
                iob.toString(),
                "--types",
                "Chemical=chemical,Disease=disease");
        assertThat(r.exit()).as("stderr: %s", r.err()).isZero();
        assertThat(r.out()).contains("(1 sentences", "chemical", "disease");
    }

    @Test
    void linkingMeasuresTheLinkerOnTheGoldMentions() throws Exception {
        Path pubtator = Files.writeString(
                dir.resolve("gold.pubtator"),
                "1|t|Naloxone reverses clonidine.\n1|a|x\n1\t0\t8\tNaloxone\tChemical\tD009270\n"
                        + "1\t18\t27\tclonidine\tChemical\tD003000\n\n");
        RunCommandTest.Result r = run(
                "eval",
                "linking",
                "--gold-mentions-only",
                "--pubtator",
                pubtator.toString(),
                "--types",
                "Chemical=chemical");
        assertThat(r.exit()).as("stderr: %s", r.err()).isZero();
        assertThat(r.out())
                .contains("linking on " + pubtator + ": 1 documents", "accuracy@1")
                .doesNotContain("end to end");
    }
}
