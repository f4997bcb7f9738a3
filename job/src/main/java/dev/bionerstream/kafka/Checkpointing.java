package dev.bionerstream.kafka;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/** Parallelism and checkpointing of a job, as both jobs (annotation and ingest) set them. */
public final class Checkpointing {
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
    }
}
