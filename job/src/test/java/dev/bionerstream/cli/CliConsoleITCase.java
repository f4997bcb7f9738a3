package dev.bionerstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.demo.Heartbeat;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The demo's console as a user sees it: {@code ./bioner demo --exit-when-done} run as the script
 * runs it (its own JVM, the CLI's classpath and log configuration, C1 only), with the index and
 * the page, on free ports. A healthy run prints its summary, no stack trace and no warning: the
 * demo waits for the broker's group coordinator before the job commits offsets, and the local
 * cluster's notes of expected states are left out. The output is kept in {@code
 * target/cli-console/demo.txt}.
 */
class CliConsoleITCase {
    /** A throwable's first line ("java.lang.IllegalStateException: ..."), a frame, a cause, a trimmed frame count. */
    static final Pattern TRACE = Pattern.compile(
            "^(\\s+at \\S.*|Caused by: .*|\\s*\\.\\.\\. \\d+ more|([a-z][\\w$]*\\.)+[A-Z][\\w$]*(Exception|Error|Throwable)(: .*)?)$");
    /** A log line at WARN, as the CLI's log pattern prints it ("12:34:56 WARN  Logger - ..."). */
    private static final Pattern WARNING = Pattern.compile("^\\d\\d:\\d\\d:\\d\\d WARN ");
    /** Generous: a loaded 2-core machine builds nothing here but starts Kafka, OpenSearch and Flink slowly. */
    private static final long TIMEOUT_MINUTES = 20;

    @Test
    void theDemoPrintsItsSummaryAndNoStackTrace() throws Exception {
        Path root = repositoryRoot();
        Path out =
                Files.createDirectories(root.resolve("job/target/cli-console")).resolve("demo.txt");
        List<String> command = new ArrayList<>(cliCommand(root));
        command.addAll(List.of(
                "demo",
                "--exit-when-done",
                "--abstracts",
                "8",
                "--abstracts-es",
                "2",
                "--port",
                "0",
                "--viewer.port",
                "0"));
        Process demo = new ProcessBuilder(command)
                .directory(root.toFile())
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .start();
        boolean exited;
        try (Heartbeat h = Heartbeat.start("the demo to exit", () -> lastLine(out))) {
            exited = demo.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES);
        }
        if (!exited) {
            demo.descendants().forEach(ProcessHandle::destroyForcibly);
            demo.destroyForcibly().waitFor();
        }
        List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
        String console = String.join("\n", lines);
        assertThat(exited)
                .as("the demo exited within %d min; its output:\n%s", TIMEOUT_MINUTES, console)
                .isTrue();
        assertThat(demo.exitValue()).as("exit code; output:\n%s", console).isZero();
        assertThat(console)
                .as("the summary")
                .contains("abstracts 10, sentences")
                .contains("for English and every language without a model of its own: 8 documents")
                .contains("for Spanish (spa): 2 documents")
                .contains("10 of 10 documents searchable")
                .as("escape codes in output that is not a terminal")
                .doesNotContain("\u001b");

        List<String> traces = new ArrayList<>();
        for (String line : lines) {
            if (TRACE.matcher(line).matches()) {
                traces.add(line);
            }
        }
        assertThat(traces)
                .as("stack trace lines in the demo's output:\n%s", console)
                .isEmpty();
        assertThat(lines.stream().filter(l -> WARNING.matcher(l).find()))
                .as("warnings in the demo's console (each one a user asks about):\n%s", console)
                .isEmpty();
    }

    /** The last line a process wrote to {@code out}, for a heartbeat while it runs. */
    static String lastLine(Path out) {
        try {
            List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
            return lines.isEmpty() ? "no output yet" : "its last line: " + lines.get(lines.size() - 1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code ./bioner} without its build step: java with the script's options, classpath and main class. */
    static List<String> cliCommand(Path root) throws IOException {
        Path target = root.resolve("job").resolve("target");
        String classpath = String.join(
                File.pathSeparator,
                target.resolve("classes").toString(),
                Files.readString(target.resolve("cli-classpath.txt")).strip(),
                Files.readString(target.resolve("cli-runtime-classpath.txt")).strip());
        return List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-Dbioner.home=" + root,
                "-Dlog4j2.configurationFile="
                        + root.resolve("job/src/main/cli/log4j2-cli.properties").toUri(),
                "-cp",
                classpath,
                Main.class.getName());
    }

    static Path repositoryRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("bioner")) && Files.isDirectory(p.resolve("job"))) {
                return p;
            }
        }
        throw new IllegalStateException(
                "./bioner not found above " + Path.of("").toAbsolutePath());
    }
}
