package dev.bionerstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.demo.Heartbeat;
import dev.bionerstream.demo.RunsBesideOthers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Ctrl-C on the keep-running demo, as a user presses it: the demo runs as {@code ./bioner demo}
 * runs it, with a temporary directory (java.io.tmpdir) of its own, and gets SIGINT once it says
 * Ctrl-C stops it. It says what it stops, stops it, exits 130 (as a command ended by Ctrl-C) with
 * no stack trace, and leaves nothing in the temporary directory: not Flink's RPC jar nor the local
 * cluster's working directory, not the broker's or the index's data, not ONNX Runtime's
 * libraries. The output is kept in {@code target/cli-console/demo-stop.txt}.
 */
@RunsBesideOthers
class DemoStopITCase {
    /** Generous: a loaded 2-core machine starts Kafka, OpenSearch and Flink slowly. */
    private static final long START_MINUTES = 15;
    /** The stop itself takes seconds; a minute means it hangs. */
    private static final long STOP_MINUTES = 2;

    @Test
    void ctrlCStopsTheDemoInOrderAndLeavesNothingInTheTemporaryDirectory() throws Exception {
        Path root = CliConsoleITCase.repositoryRoot();
        Path target = Files.createDirectories(root.resolve("job/target/cli-console"));
        Path out = target.resolve("demo-stop.txt");
        Path tmp = Files.createTempDirectory(target, "demo-stop-tmp");
        // A shell's background job (CI's runner, nohup) starts with SIGINT ignored, which its children
        // inherit and a JVM keeps ignoring: env gives the demo SIGINT's default, as a terminal does.
        List<String> command = new ArrayList<>(List.of("env", "--default-signal=INT"));
        List<String> java = CliConsoleITCase.cliCommand(root);
        command.add(java.get(0));
        command.add("-Djava.io.tmpdir=" + tmp);
        command.addAll(java.subList(1, java.size()));
        // The smallest sample, English only: what is stopped is the same.
        command.addAll(List.of(
                "demo", "--abstracts", "2", "--model.language-bundles", "none", "--port", "0", "--viewer.port", "0"));
        Process demo = new ProcessBuilder(command)
                .directory(root.toFile())
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .start();
        try {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(START_MINUTES);
            try (Heartbeat h =
                    Heartbeat.start("the demo to be up (\"Ctrl-C stops it.\")", () -> CliConsoleITCase.lastLine(out))) {
                while (!Files.readString(out).contains("Ctrl-C stops it.")
                        && demo.isAlive()
                        && System.nanoTime() < deadline) {
                    Thread.sleep(500);
                }
            }
            assertThat(Files.readString(out))
                    .as("the demo is up and keeps running")
                    .contains("Ctrl-C stops it.");
            new ProcessBuilder("kill", "-INT", Long.toString(demo.pid()))
                    .inheritIO()
                    .start()
                    .waitFor();
            boolean exited;
            try (Heartbeat h = Heartbeat.start("the demo to stop", () -> CliConsoleITCase.lastLine(out))) {
                exited = demo.waitFor(STOP_MINUTES, TimeUnit.MINUTES);
            }
            List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
            String console = String.join("\n", lines);
            assertThat(exited)
                    .as("the demo stopped within %d min; its output:\n%s", STOP_MINUTES, console)
                    .isTrue();
            assertThat(demo.exitValue()).as("exit code; output:\n%s", console).isEqualTo(StopSignals.EXIT_CODE);
            assertThat(console)
                    .contains("stopping the demo: the job, the Kafka broker, OpenSearch and the page, "
                            + "Flink's local cluster and its temporary files");
            assertThat(lines.get(lines.size() - 1)).as("the last line").matches("stopped \\(\\d+\\.\\d s\\)");
            assertThat(lines.stream()
                            .filter(l -> CliConsoleITCase.TRACE.matcher(l).matches()))
                    .as("stack trace lines in the demo's output:\n%s", console)
                    .isEmpty();
            try (Stream<Path> left = Files.list(tmp)) {
                assertThat(left.map(p -> p.getFileName().toString()))
                        .as("what the demo left in its temporary directory")
                        .isEmpty();
            }
            Files.delete(tmp);
        } finally {
            if (demo.isAlive()) {
                demo.descendants().forEach(ProcessHandle::destroyForcibly);
                demo.destroyForcibly().waitFor();
            }
        }
    }
}
