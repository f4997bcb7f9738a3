package dev.bionerstream.cli;

import dev.bionerstream.ingest.IngestConfig;
import dev.bionerstream.ingest.IngestJob;
import dev.bionerstream.kafka.OptionKeys;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/** Runs the PubMed feed adapter on a local Flink cluster; like {@code run}, it resumes from its newest checkpoint. */
@Command(
        name = "ingest",
        description = "Watches a directory for PubMed XML files and writes their citations and deletions to the "
                + "input topic: --ingest.directory DIR --kafka.bootstrap-servers HOST:PORT; --help lists the keys.")
final class IngestCommand implements Callable<Integer> {
    @Unmatched
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        if (args.contains("--help") || args.contains("-h")) {
            System.out.print(RunCommand.help(
                    "Usage: bioner ingest --ingest.directory DIR --kafka.bootstrap-servers HOST:PORT [--key value ...]\n\n"
                            + "Runs the PubMed ingest job on a local Flink cluster. Keys (also --key=value):\n",
                    IngestConfig.OPTIONS));
            return 0;
        }
        Configuration given = OptionKeys.parseArgs(args.toArray(String[]::new));
        RunCommand.withDefaultCheckpointDir(given);
        IngestConfig cfg = IngestConfig.from(given);
        RunCommand.runLocally(
                cfg.kafka(), "every file in " + cfg.directory(), IngestJob.NAME, env -> IngestJob.wire(env, cfg));
        return 0;
    }
}
