package dev.bionerstream.cli;

import dev.bionerstream.ingest.IngestConfig;
import dev.bionerstream.ingest.IngestJob;
import dev.bionerstream.options.CommandLineFlags;
import dev.bionerstream.options.CommandLineFlags.Flag;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/** Runs the PubMed feed adapter on a local Flink cluster; like {@code run}, it resumes from its newest checkpoint. */
@Command(
        name = "ingest",
        mixinStandardHelpOptions = true,
        modelTransformer = CommandLineFlags.class,
        header = "PubMed XML files from a directory to the input topic",
        description = {
            "Runs the PubMed ingest job on a local Flink cluster: citations, revisions and deletions from PubMed XML files (.xml, .xml.gz) to the input topic, exactly once; like run, it resumes from its newest checkpoint.",
            "",
            "The options are the job's keys (also --key=value). Keys starting with " + RunCommand.CLIENT_PROPERTIES
                    + " go to the Kafka clients unchanged."
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  ./bioner ingest --ingest.directory /data/pubmed --kafka.bootstrap-servers HOST:9092",
            "  ./bioner fetch --dir /data/pubmed --contact you@your.org   # fills the directory from NCBI"
        })
final class IngestCommand implements CommandLineFlags.Settings, Callable<Integer> {
    /** The Kafka clients' own properties, which no flag names, and anything mistyped, refused by the job. */
    @Unmatched
    List<String> clientProperties = new ArrayList<>();

    @Spec
    CommandSpec spec;

    @Override
    public List<Flag> settings() {
        return RunCommand.jobFlags(IngestConfig.OPTIONS);
    }

    @Override
    public Integer call() throws Exception {
        IngestConfig cfg = IngestConfig.from(RunCommand.given(spec, clientProperties));
        IngestJob.checkKafkaPermissions(cfg);
        RunCommand.runLocally(
                cfg.kafka(), "every file in " + cfg.directory(), IngestJob.NAME, env -> IngestJob.wire(env, cfg));
        return 0;
    }
}
