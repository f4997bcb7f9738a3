package dev.bionerstream.cli;

import dev.bionerstream.ingest.IngestConfig;
import dev.bionerstream.ingest.IngestJob;
import dev.bionerstream.ingest.IngestOptions;
import dev.bionerstream.job.JobConfig;
import dev.bionerstream.job.JobOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/** Runs the PubMed feed adapter on a local Flink cluster; like {@code run}, it resumes from its newest checkpoint. */
@Command(
        name = "ingest",
        description = "Watches a directory for PubMed XML files and writes their citations and deletions to the "
                + "input topic: --ingest.directory DIR --kafka.bootstrap-servers HOST:PORT; --help lists the keys.")
final class IngestCommand implements Callable<Integer> {
    /** The keys the ingest job reads: its own, then the Kafka, checkpoint and parallelism keys it shares. */
    static final List<ConfigOption<?>> KEYS = Stream.concat(
                    IngestOptions.ALL.stream(),
                    Stream.of(
                            JobOptions.BOOTSTRAP_SERVERS,
                            JobOptions.INPUT_TOPIC,
                            JobOptions.DEAD_LETTER_TOPIC,
                            JobOptions.GROUP_ID,
                            JobOptions.DELIVERY_GUARANTEE,
                            JobOptions.TRANSACTIONAL_ID_PREFIX,
                            JobOptions.TRANSACTION_TIMEOUT,
                            JobOptions.CHECKPOINT_INTERVAL,
                            JobOptions.CHECKPOINT_DIR))
            .toList();

    @Unmatched
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        if (args.contains("--help") || args.contains("-h")) {
            System.out.print(RunCommand.help(
                    "Usage: bioner ingest --ingest.directory DIR --kafka.bootstrap-servers HOST:PORT [--key value ...]\n\n"
                            + "Runs the PubMed ingest job on a local Flink cluster. Keys (also --key=value):\n",
                    KEYS));
            return 0;
        }
        Configuration given = JobConfig.parseArgs(args.toArray(String[]::new));
        RunCommand.withDefaultCheckpointDir(given);
        IngestConfig cfg = IngestConfig.from(given);
        RunCommand.runLocally(cfg.kafka(), IngestJob.NAME, env -> IngestJob.wire(env, cfg));
        return 0;
    }
}
