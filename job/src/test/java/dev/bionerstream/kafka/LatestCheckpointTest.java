package dev.bionerstream.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LatestCheckpointTest {
    @TempDir
    Path dir;

    private Path checkpoint(String job, String chk, boolean completed, long millis) throws Exception {
        Path p = Files.createDirectories(dir.resolve(job).resolve(chk));
        if (completed) {
            Files.writeString(p.resolve("_metadata"), "x");
            Files.setLastModifiedTime(p.resolve("_metadata"), FileTime.fromMillis(millis));
        }
        return p;
    }

    @Test
    void theNewestCompletedCheckpointOfAnyEarlierRunIsChosen() throws Exception {
        checkpoint("run-1", "chk-40", true, 1_000);
        Path newest = checkpoint("run-2", "chk-3", true, 5_000);
        checkpoint("run-2", "chk-4", false, 0); // being written when the process died
        Files.createDirectories(dir.resolve("run-2").resolve("shared"));
        assertThat(LatestCheckpoint.in(dir)).contains(newest);
    }

    @Test
    void nothingToResumeFromIsEmpty() throws Exception {
        assertThat(LatestCheckpoint.in(dir.resolve("absent"))).isEmpty();
        checkpoint("run-1", "chk-1", false, 0);
        assertThat(LatestCheckpoint.in(dir)).isEmpty();
    }
}
