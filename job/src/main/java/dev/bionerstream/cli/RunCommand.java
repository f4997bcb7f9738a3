package dev.bionerstream.cli;

import dev.bionerstream.job.BionerJob;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/** Runs the streaming job against a real Kafka cluster: locally, or on the cluster flink run submits to. */
@Command(name = "run", description = "Runs the streaming job: --kafka.bootstrap-servers HOST:PORT [--key value ...] (see README, Configuration).")
final class RunCommand implements Callable<Integer> {
    @Unmatched List<String> args = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        BionerJob.main(args.toArray(String[]::new));
        return 0;
    }
}
