package dev.bionerstream.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Entry point of the command line ({@code ./bioner}): {@code demo}, {@code run}, {@code ingest},
 * {@code fetch}, {@code view}, {@code import}, {@code export}, {@code extract}, {@code link},
 * {@code eval} ({@code eval ner}, {@code eval linking}), {@code bench}, {@code annotate}. Each
 * command's {@code header} is its line in {@code ./bioner --help} and in the README's command table
 * (CommandHelpTest compares them).
 */
@Command(
        name = "bioner",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        header = "bioner-stream: entities in biomedical text, streamed through Apache Flink",
        description = {
            "Abstracts arrive on Kafka; the job finds their entities with a BioBERT-MRC model and writes entity "
                    + "events to Kafka and an OpenSearch index, exactly once. These commands run it on this "
                    + "machine (no cluster to install) and work with its input and output."
        },
        commandListHeading = "%nCommands:%n",
        footerHeading = "%nExamples:%n",
        footer = {
            "  ./bioner demo                                     # try it: sample abstracts, summary, search page",
            "  ./bioner run --kafka.bootstrap-servers HOST:9092  # the job against your Kafka",
            "  echo \"Naloxone reverses the effect of clonidine.\" | ./bioner extract",
            "",
            "./bioner COMMAND --help lists a command's options, with examples."
        },
        subcommands = {
            DemoCommand.class,
            RunCommand.class,
            IngestCommand.class,
            FetchCommand.class,
            ViewCommand.class,
            ImportCommand.class,
            ExportCommand.class,
            ExtractCommand.class,
            LinkCommand.class,
            EvalCommand.class,
            BenchCommand.class,
            AnnotateCommand.class
        })
public final class Main {
    /** Columns of a help page unless the terminal is wider: every line of every page fits (CommandHelpTest). */
    static final int USAGE_WIDTH = 100;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String... args) {
        return commandLine().execute(args);
    }

    /** The command line as {@code ./bioner} runs it: help laid out, errors answered. */
    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new Main());
        // Examples are easier to copy unwrapped; a wider terminal gets its own width.
        cli.setUsageHelpWidth(USAGE_WIDTH);
        cli.setUsageHelpAutoWidth(true);
        layOut(cli);
        cli.setParameterExceptionHandler(EvalCommand.oldForms(Main::usageError));
        cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println("error: " + e.getMessage());
            return 2;
        });
        return cli;
    }

    /**
     * A mistake on the command line as one line and where the help is: the whole help page after it
     * would push the line out of sight ({@code run} lists some 70 options).
     */
    private static int usageError(ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        PrintWriter err = cmd.getErr();
        err.println("error: " + e.getMessage());
        UnmatchedArgumentException.printSuggestions(e, err);
        err.printf(
                "(./%s --help: its options and examples)%n",
                cmd.getCommandSpec().qualifiedName(" "));
        return cmd.getCommandSpec().exitCodeOnInvalidInput();
    }

    /** Every help page as a reference: the line, then usage, description, options, examples, set apart. */
    private static void layOut(CommandLine cli) {
        cli.getCommandSpec()
                .usageMessage()
                .synopsisHeading("%nUsage: ")
                // the options are listed below; a full synopsis wraps inside names such as --link.gene-species
                .abbreviateSynopsis(true)
                .descriptionHeading("%n")
                .optionListHeading("%nOptions:%n");
        cli.getSubcommands().values().forEach(Main::layOut);
    }
}
