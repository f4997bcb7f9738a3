package dev.bionerstream.kafka;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.RecoveryClaimMode;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Parallelism and checkpointing of a job, as both jobs (annotation and ingest) set them, and where it
 * starts from when told to resume ({@code job.resume-from-checkpoint}).
 */
public final class Checkpointing {
    private static final Logger LOG = LoggerFactory.getLogger(Checkpointing.class);

    private Checkpointing() {}

    public static void configure(StreamExecutionEnvironment env, KafkaConfig cfg) {
        env.setParallelism(cfg.parallelism());
        env.enableCheckpointing(cfg.checkpointInterval().toMillis());
        // A cancelled or killed job keeps its last checkpoint: restarting from it neither loses nor repeats output.
        env.getCheckpointConfig()
                .setExternalizedCheckpointRetention(ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        cfg.checkpointStorage().ifPresent(dir -> {
            Configuration storage = new Configuration();
            storage.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
            storage.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, dir);
            env.configure(storage);
        });
        if (cfg.resumeFromCheckpoint()) {
            resume(env, cfg.checkpointStorage().orElseThrow());
        }
    }

    /**
     * Restores the job from the newest completed checkpoint under {@code storage} unless it was given
     * a savepoint or checkpoint to start from. The job claims it (Flink deletes it once later
     * checkpoints supersede it), as {@code ./bioner run} does.
     */
    private static void resume(StreamExecutionEnvironment env, String storage) {
        var given = env.getConfiguration().getOptional(StateRecoveryOptions.SAVEPOINT_PATH);
        if (given.isPresent()) {
            LOG.info("Starting from {}, given at submission (not the newest checkpoint in {})", given.get(), storage);
            return;
        }
        LatestCheckpoint.in(new Path(storage))
                .ifPresentOrElse(
                        chk -> {
                            LOG.info("Resuming from checkpoint {} (the newest completed one in {})", chk, storage);
                            Configuration restore = new Configuration();
                            restore.set(StateRecoveryOptions.SAVEPOINT_PATH, chk.toString());
                            restore.set(StateRecoveryOptions.RESTORE_MODE, RecoveryClaimMode.CLAIM);
                            env.configure(restore);
                        },
                        () -> LOG.info("No completed checkpoint in {}: starting without state", storage));
    }
}
