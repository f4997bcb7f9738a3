package dev.bionerstream.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.UnmatchedArgumentException;

/** {@code eval}: the measures, each a subcommand with its own options and help. */
@Command(
        name = "eval",
        mixinStandardHelpOptions = true,
        header = "Scores of the model (eval ner) or of the linker (eval linking) on a corpus",
        description = {
            "ner scores the model: entity-level exact-match precision, recall and F1 on an IOB corpus. linking measures the linker on a PubTator corpus with concept ids: accuracy@1 on the gold mentions, then end to end after the model. ./bioner eval MEASURE --help lists a measure's options."
        },
        commandListHeading = "%nMeasures:%n",
        footerHeading = "%nExamples:%n",
        footer = {
            "  ./bioner eval ner --iob corpora/BC5CDR-IOB/test.tsv --types Chemical=chemical,Disease=disease",
            "  ./bioner eval linking --pubtator corpora/linking/BC5CDR-PubTator/CDR_TestSet.PubTator.txt.gz \\",
            "      --types Chemical=chemical,Disease=disease"
        },
        subcommands = {NerEvalCommand.class, LinkingEvalCommand.class})
final class EvalCommand {
    private EvalCommand() {}

    /**
     * Answers {@code eval --iob ...} and {@code eval --linking ...}, eval's forms from before its
     * measures were subcommands, with the command that does the same now; {@code otherwise} answers
     * every other mistake. A script with an old form stops with its replacement rather than running
     * something else.
     */
    static IParameterExceptionHandler oldForms(IParameterExceptionHandler otherwise) {
        return (e, args) -> {
            List<String> unmatched = e instanceof UnmatchedArgumentException u
                            && e.getCommandLine().getCommand() instanceof EvalCommand
                    ? u.getUnmatched()
                    : List.of();
            String measure = unmatched.contains("--linking") ? "linking" : unmatched.contains("--iob") ? "ner" : null;
            if (measure == null) {
                return otherwise.handleParseException(e, args);
            }
            List<String> rest = List.of(args).subList(1, args.length);
            List<String> now = new ArrayList<>(List.of("./bioner", "eval", measure));
            rest.stream().filter(a -> !a.equals("--linking")).forEach(now::add);
            e.getCommandLine()
                    .getErr()
                    .printf(
                            "error: eval %s is eval %s now (eval's measures are subcommands):%n  %s%n",
                            measure.equals("linking") ? "--linking" : "--iob",
                            measure,
                            now.stream().map(EvalCommand::quoted).collect(Collectors.joining(" ")));
            return 2;
        };
    }

    /** An argument as a shell reads it back, so the line can be copied. */
    private static String quoted(String arg) {
        return arg.matches("[\\w@%+=:,./-]+") ? arg : "'" + arg.replace("'", "'\\''") + "'";
    }
}
