package dev.bionerstream.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of the command line ({@code ./bioner}): {@code demo}, {@code run}, {@code ingest},
 * {@code fetch}, {@code view}, {@code import}, {@code export}, {@code extract}, {@code link}, {@code eval},
 * {@code bench}, {@code annotate}. Each command's {@code header} is its line in {@code ./bioner
 * --help} and in the README's command table (CommandHelpTest compares them).
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
    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String... args) {
        CommandLine cli = new CommandLine(new Main());
        // Examples are easier to copy unwrapped; a wider terminal gets its own width.
        cli.setUsageHelpWidth(100);
        cli.setUsageHelpAutoWidth(true);
        layOut(cli);
        cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println("error: " + e.getMessage());
            return 2;
        });
        return cli.execute(args);
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
