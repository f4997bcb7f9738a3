package dev.bionerstream.deploy;

import static dev.bionerstream.deploy.DeployFiles.at;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docker/resume-from-latest-checkpoint.sh, the entry point of the compose JobManagers: a restarted
 * container resumes its job from the newest completed checkpoint instead of starting it afresh.
 */
class ResumeFromLatestCheckpointTest {
    private static final String SCRIPT = "docker/resume-from-latest-checkpoint.sh";

    @TempDir
    Path tmp;

    /** Runs the script with a stand-in for Flink's entry point that prints what it was given. */
    private String run(Path checkpoints) throws Exception {
        Path flink = tmp.resolve("flink-entrypoint.sh");
        Files.writeString(flink, "#!/bin/sh\nprintf 'args: %s\\n' \"$*\"\nprintf '%s\\n' \"$FLINK_PROPERTIES\"\n");
        flink.toFile().setExecutable(true);
        ProcessBuilder pb = new ProcessBuilder(
                        "sh", DeployFiles.root().resolve(SCRIPT).toString(), "standalone-job", "--job-classname", "X")
                .redirectErrorStream(true);
        pb.environment().put("BIONER_CHECKPOINTS", checkpoints.toString());
        pb.environment().put("FLINK_ENTRYPOINT", flink.toString());
        pb.environment().put("FLINK_PROPERTIES", "parallelism.default: 2");
        Process p = pb.start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }

    private Path checkpoint(Path dir, String job, int n, boolean completed, int minutesAgo) throws Exception {
        Path chk = Files.createDirectories(dir.resolve(job).resolve("chk-" + n));
        if (completed) {
            Path metadata = Files.writeString(chk.resolve("_metadata"), "x");
            Files.setLastModifiedTime(metadata, FileTime.from(Instant.now().minusSeconds(60L * minutesAgo)));
        }
        return chk;
    }

    @Test
    void withoutACheckpointTheJobStartsAfreshWithItsArguments() throws Exception {
        String out = run(Files.createDirectories(tmp.resolve("empty")));
        assertThat(out)
                .contains("no completed checkpoint")
                .contains("args: standalone-job --job-classname X")
                .contains("parallelism.default: 2")
                .doesNotContain(StateRecoveryOptions.SAVEPOINT_PATH.key());
    }

    @Test
    void theNewestCompletedCheckpointIsRestoredAndOneBeingWrittenIsPassedOver() throws Exception {
        Path dir = tmp.resolve("checkpoints");
        checkpoint(dir, "a0", 3, true, 30);
        Path newest = checkpoint(dir, "b1", 7, true, 1);
        checkpoint(dir, "b1", 8, false, 0); // cut off while being written: no _metadata
        Files.createDirectories(dir.resolve("savepoints").resolve("savepoint-b1-0"));
        String out = run(dir);
        assertThat(out)
                .contains("args: standalone-job --job-classname X")
                .contains("parallelism.default: 2")
                .contains(StateRecoveryOptions.SAVEPOINT_PATH.key() + ": file://" + newest);
    }

    @Test
    void theJobManagersOfBothJobsStartThroughIt() throws Exception {
        Map<String, Object> services = at(
                DeployFiles.load(DeployFiles.root().resolve("docker-compose.yml"))
                        .get(0),
                "services");
        for (String jobManager : List.of("jobmanager", "ingest")) {
            List<String> entrypoint = at(services.get(jobManager), "entrypoint");
            assertThat(entrypoint).as(jobManager).containsExactly("/opt/flink/bin/resume-from-latest-checkpoint.sh");
        }
        String dockerfile = Files.readString(DeployFiles.root().resolve("Dockerfile"));
        assertThat(dockerfile.split("COPY --chmod=755 " + SCRIPT + " /opt/flink/bin/", -1))
                .as("copied into the cpu and the gpu image")
                .hasSize(3);
    }
}
