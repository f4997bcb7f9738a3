package dev.bionerstream.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Local checkpoints resume only against the Kafka cluster they were taken against. */
class KafkaClusterCheckpointsTest {
    @TempDir
    Path dir;

    private Path completedCheckpoint() throws Exception {
        Path chk = Files.createDirectories(dir.resolve("job-1").resolve("chk-7"));
        Files.writeString(chk.resolve("_metadata"), "x");
        return chk;
    }

    @Test
    void checkpointsOfTheSameClusterResume() throws Exception {
        Path chk = completedCheckpoint();
        KafkaClusterCheckpoints.claim(dir, "cluster-A");
        assertThat(KafkaClusterCheckpoints.resumePoint(dir, "cluster-A", "kafka-a:9092"))
                .contains(chk);
    }

    @Test
    void checkpointsOfAnotherClusterAreRefusedNamingWhatToDelete() throws Exception {
        completedCheckpoint();
        KafkaClusterCheckpoints.claim(dir, "cluster-A");
        assertThatThrownBy(() -> KafkaClusterCheckpoints.resumePoint(dir, "cluster-B", "kafka-b:9092"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("taken against Kafka cluster cluster-A")
                .hasMessageContaining("kafka-b:9092 is cluster cluster-B")
                .hasMessageContaining("Delete " + dir);
    }

    @Test
    void checkpointsWithoutAClusterIdAreRefusedWithBothWaysOut() throws Exception {
        completedCheckpoint();
        assertThatThrownBy(() -> KafkaClusterCheckpoints.resumePoint(dir, "cluster-B", "kafka-b:9092"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("write its id cluster-B into " + dir.resolve(KafkaClusterCheckpoints.MARKER))
                .hasMessageContaining("delete " + dir);
    }

    @Test
    void aDirectoryWithoutCompletedCheckpointsStartsAfreshWhateverItsMarker() throws Exception {
        KafkaClusterCheckpoints.claim(dir, "cluster-A");
        assertThat(KafkaClusterCheckpoints.resumePoint(dir, "cluster-B", "kafka-b:9092"))
                .isEmpty();
        KafkaClusterCheckpoints.claim(dir, "cluster-B");
        assertThat(Files.readString(dir.resolve(KafkaClusterCheckpoints.MARKER)).strip())
                .isEqualTo("cluster-B");
    }
}
