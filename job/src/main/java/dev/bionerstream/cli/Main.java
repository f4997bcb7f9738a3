package dev.bionerstream.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of the command line ({@code ./bioner}): {@code demo}, {@code run}, {@code ingest}, {@code fetch},
 * {@code eval}, {@code extract}, {@code bench}, {@code import}, {@code export}, {@code view}.
 */
@Command(
        name = "bioner",
        mixinStandardHelpOptions = true,
        version = "bioner-stream 0.1.0",
        description = "Biomedical entity extraction with BioBERT-MRC.",
        subcommands = {
            DemoCommand.class,
            RunCommand.class,
            EvalCommand.class,
            ExtractCommand.class,
            BenchCommand.class,
            AnnotateCommand.class,
            ImportCommand.class,
            ExportCommand.class,
            IngestCommand.class,
            FetchCommand.class,
            ViewCommand.class
        })
public final class Main {
    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String... args) {
        CommandLine cli = new CommandLine(new Main());
        cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println("error: " + e.getMessage());
            return 2;
        });
        return cli.execute(args);
    }
}
