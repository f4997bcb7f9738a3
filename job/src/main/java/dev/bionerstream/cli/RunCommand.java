package dev.bionerstream.cli;

import dev.bionerstream.job.BionerJob;
import dev.bionerstream.job.JobConfig;
import dev.bionerstream.kafka.KafkaConfig;
import dev.bionerstream.kafka.KafkaOptions;
import dev.bionerstream.options.CommandLineFlags;
import dev.bionerstream.options.CommandLineFlags.Flag;
import dev.bionerstream.options.OptionKeys;
import dev.bionerstream.serving.BundleChoice;
import dev.bionerstream.serving.SessionFactory;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.RecoveryClaimMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * Runs the streaming job on a local Flink cluster in this process, against a real Kafka cluster.
 * Checkpoints go to a local directory by default and are kept; the same command after a crash
 * resumes from the newest completed one, so read_committed consumers see nothing twice and
 * nothing is lost. ({@code flink run} and Kubernetes use the cluster's own checkpoint storage.)
 */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        modelTransformer = CommandLineFlags.class,
        header = "The streaming job against your Kafka: abstracts in, entities out",
        description = {
            "Runs the streaming job on a local Flink cluster in this process; checkpoints go to a local directory and are kept, and the same command after a crash resumes from the newest one.",
            "",
            "The options are the job's keys, as flink run takes them (also --key=value). Keys starting with "
                    + RunCommand.CLIENT_PROPERTIES
                    + " go to the Kafka clients unchanged (security.protocol, sasl.*, ssl.*)."
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  ./bioner run --kafka.bootstrap-servers HOST:9092",
            "  ./bioner run --kafka.bootstrap-servers HOST:9092 --opensearch.hosts http://HOST:9200",
            "  ./bioner run --kafka.bootstrap-servers HOST:9092 \\",
            "      --model.language-bundles spa=bundles/pharmaconer-es"
        })
final class RunCommand implements CommandLineFlags.Settings, Callable<Integer> {
    static final String CLIENT_PROPERTIES = "--" + KafkaOptions.KAFKA_PROPERTIES_PREFIX;

    static final String DEFAULT_CHECKPOINT_DIR = Path.of(
                    System.getProperty("user.home"), ".local", "share", "bioner-stream", "checkpoints")
            .toUri()
            .toString();

    /** The Kafka clients' own properties, which no flag names, and anything mistyped, refused by the job. */
    @Unmatched
    List<String> clientProperties = new ArrayList<>();

    @Spec
    CommandSpec spec;

    @Override
    public List<Flag> settings() {
        return jobFlags(JobConfig.OPTIONS);
    }

    @Override
    public Integer call() throws Exception {
        Configuration given = given(spec, clientProperties);
        JobConfig cfg = JobConfig.from(given, BundleChoice.ofThisInstallation());
        BionerJob.checkKafkaPermissions(cfg);
        runLocally(
                cfg.kafka(),
                "kafka.starting-offsets " + cfg.startingOffsets(),
                BionerJob.NAME,
                env -> BionerJob.wire(env, cfg, SessionFactory.ONNX_RUNTIME));
        return 0;
    }

    /**
     * Runs a job on a local cluster, resuming from its newest completed checkpoint when there is one;
     * {@code freshStart} says where it starts otherwise.
     */
    static void runLocally(KafkaConfig cfg, String freshStart, String name, Consumer<StreamExecutionEnvironment> wiring)
            throws Exception {
        Configuration flink = LocalCluster.configuration(0);
        resumePoint(cfg)
                .ifPresentOrElse(
                        chk -> {
                            System.err.println(
                                    "Resuming from checkpoint " + chk + " (the newest completed one of this job)");
                            flink.set(
                                    StateRecoveryOptions.SAVEPOINT_PATH,
                                    chk.toUri().toString());
                            flink.set(StateRecoveryOptions.RESTORE_MODE, RecoveryClaimMode.CLAIM);
                        },
                        () -> System.err.println("No checkpoint in "
                                + cfg.checkpointStorage().orElseThrow() + ": starting from " + freshStart));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(flink);
        wiring.accept(env);
        env.execute(name);
    }

    /**
     * The newest completed checkpoint of this job (its checkpoint directory and consumer group) on a
     * local file system, when it was taken against the Kafka cluster {@code cfg} names (refused with
     * what to delete otherwise, see {@link KafkaClusterCheckpoints}); the directory is marked as that
     * cluster's before the job writes to it.
     */
    static Optional<Path> resumePoint(KafkaConfig cfg) {
        return localCheckpointDir(cfg).flatMap(dir -> {
            String clusterId = KafkaClusterCheckpoints.clusterId(cfg.bootstrapServers(), cfg.kafkaClientProperties());
            Optional<Path> chk = KafkaClusterCheckpoints.resumePoint(dir, clusterId, cfg.bootstrapServers());
            KafkaClusterCheckpoints.claim(dir, clusterId);
            return chk;
        });
    }

    private static Optional<Path> localCheckpointDir(KafkaConfig cfg) {
        URI dir = URI.create(cfg.checkpointStorage().orElseThrow());
        if (dir.getScheme() != null && !dir.getScheme().equals("file")) {
            return Optional.empty(); // remote storage: resume with flink run -s, as docs/guarantees.md shows
        }
        return Optional.of(dir.getScheme() == null ? Path.of(dir.getPath()) : Path.of(dir));
    }

    /** A job's options as flags, checkpoints kept in {@link #DEFAULT_CHECKPOINT_DIR} unless told otherwise. */
    static List<Flag> jobFlags(List<ConfigOption<?>> options) {
        return Flag.all(options).stream()
                .map(f -> f.option().equals(KafkaOptions.CHECKPOINT_DIR) ? f.withDefault(DEFAULT_CHECKPOINT_DIR) : f)
                .toList();
    }

    /**
     * What the command line gave a job, the Kafka clients' properties with it; a key neither names
     * is left for the job's own check, which refuses it with the nearest key.
     */
    static Configuration given(CommandSpec spec, List<String> clientProperties) {
        Configuration given = CommandLineFlags.given(spec);
        given.addAll(OptionKeys.parseArgs(clientProperties.toArray(String[]::new)));
        return given;
    }
}
