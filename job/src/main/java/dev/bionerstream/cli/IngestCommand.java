package dev.bionerstream.cli;

import dev.bionerstream.ingest.IngestConfig;
import dev.bionerstream.ingest.IngestJob;
import dev.bionerstream.options.OptionKeys;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/** Runs the PubMed feed adapter on a local Flink cluster; like {@code run}, it resumes from its newest checkpoint. */
@Command(
        name = "ingest",
        header = "PubMed XML files from a directory to the input topic",
        footerHeading = "%nExamples:%n",
        footer = {
            "  ./bioner ingest --ingest.directory /data/pubmed --kafka.bootstrap-servers HOST:9092",
            "  ./bioner fetch --dir /data/pubmed --contact you@your.org   # fills the directory from NCBI"
        })
final class IngestCommand implements Callable<Integer> {
    @Unmatched
    List<String> args = new ArrayList<>();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (args.contains("--help") || args.contains("-h")) {
            System.out.print(RunCommand.help(
                    spec,
                    "Usage: bioner ingest --ingest.directory DIR --kafka.bootstrap-servers HOST:PORT [--key value ...]\n\n"
                            + "Runs the PubMed ingest job on a local Flink cluster: citations, revisions and "
                            + "deletions from PubMed XML files (.xml, .xml.gz) to the input topic, exactly once; like "
                            + "run, it resumes from its newest checkpoint. Keys (also --key=value):\n",
                    IngestConfig.OPTIONS));
            return 0;
        }
        Configuration given = OptionKeys.parseArgs(args.toArray(String[]::new));
        RunCommand.withDefaultCheckpointDir(given);
        IngestConfig cfg = IngestConfig.from(given);
        IngestJob.checkKafkaPermissions(cfg);
        RunCommand.runLocally(
                cfg.kafka(), "every file in " + cfg.directory(), IngestJob.NAME, env -> IngestJob.wire(env, cfg));
        return 0;
    }
}
