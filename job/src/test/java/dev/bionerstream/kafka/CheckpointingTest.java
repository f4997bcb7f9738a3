package dev.bionerstream.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.RecoveryClaimMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a job starts with {@code job.resume-from-checkpoint}: from the newest completed checkpoint of
 * its consumer group under {@code job.checkpoint-dir}, unless it was given a savepoint; without state
 * when there is none. (ClusterITCase resubmits with it on a session cluster.)
 */
class CheckpointingTest {
    @TempDir
    Path dir;

    private KafkaConfig config(String... more) {
        List<String> args = new ArrayList<>(List.of(
                "kafka.bootstrap-servers", "k:9092",
                "kafka.group-id", "annotate",
                "job.checkpoint-dir", dir.toUri().toString()));
        args.addAll(List.of(more));
        Configuration c = new Configuration();
        for (int i = 0; i < args.size(); i += 2) {
            c.setString(args.get(i), args.get(i + 1));
        }
        return KafkaConfig.from(c);
    }

    private Path checkpoint(String job, int n) throws Exception {
        Path chk = Files.createDirectories(dir.resolve("annotate").resolve(job).resolve("chk-" + n));
        Files.writeString(chk.resolve("_metadata"), "x");
        return chk;
    }

    @Test
    void resumingStartsFromTheNewestCompletedCheckpointOfTheGroup() throws Exception {
        Path newest = checkpoint("job-1", 7);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        Checkpointing.configure(env, config("job.resume-from-checkpoint", "true"));
        assertThat(Path.of(java.net.URI.create(env.getConfiguration().get(StateRecoveryOptions.SAVEPOINT_PATH))))
                .isEqualTo(newest);
        assertThat(env.getConfiguration().get(StateRecoveryOptions.RESTORE_MODE))
                .isEqualTo(RecoveryClaimMode.CLAIM);
    }

    @Test
    void aSavepointGivenAtSubmissionGoesFirst() throws Exception {
        checkpoint("job-1", 7);
        Configuration submitted = new Configuration();
        submitted.set(StateRecoveryOptions.SAVEPOINT_PATH, "file:///savepoints/savepoint-1");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(submitted);
        Checkpointing.configure(env, config("job.resume-from-checkpoint", "true"));
        assertThat(env.getConfiguration().get(StateRecoveryOptions.SAVEPOINT_PATH))
                .isEqualTo("file:///savepoints/savepoint-1");
    }

    @Test
    void withoutACheckpointOrTheOptionTheJobStartsWithoutState() throws Exception {
        StreamExecutionEnvironment fresh = StreamExecutionEnvironment.getExecutionEnvironment();
        Checkpointing.configure(fresh, config("job.resume-from-checkpoint", "true"));
        assertThat(fresh.getConfiguration().getOptional(StateRecoveryOptions.SAVEPOINT_PATH))
                .isEmpty();
        checkpoint("job-1", 7);
        StreamExecutionEnvironment plain = StreamExecutionEnvironment.getExecutionEnvironment();
        Checkpointing.configure(plain, config());
        assertThat(plain.getConfiguration().getOptional(StateRecoveryOptions.SAVEPOINT_PATH))
                .isEmpty();
    }

    @Test
    void resumingNeedsACheckpointDirectory() {
        Configuration c = new Configuration();
        c.setString("kafka.bootstrap-servers", "k:9092");
        c.setString("job.resume-from-checkpoint", "true");
        assertThatThrownBy(() -> KafkaConfig.from(c))
                .hasMessageStartingWith("--job.resume-from-checkpoint needs --job.checkpoint-dir");
    }
}
