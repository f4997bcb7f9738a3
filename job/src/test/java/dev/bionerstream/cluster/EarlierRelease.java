package dev.bionerstream.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The job jar of the release before linking, as a deployment runs it today: built once from this
 * repository's history (a git worktree of {@link #COMMIT}, {@code mvn package}) into {@code target/},
 * so an upgrade by savepoint is tested against the real earlier job, not a copy of its classes.
 */
final class EarlierRelease {
    /** main before the linked fields (schemas, index, job stage) landed. */
    static final String COMMIT = "3f968a511820788d0b3097fbe8ed2477df7856e8";

    private EarlierRelease() {}

    static Path jar(Path root, Path logDir) throws IOException, InterruptedException {
        Path jar = Path.of("target", "release-" + COMMIT.substring(0, 7), "bioner-stream-job.jar")
                .toAbsolutePath();
        if (Files.isRegularFile(jar)) {
            return jar;
        }
        Path tree = Files.createTempDirectory("bioner-release-");
        Files.delete(tree);
        Path log = logDir.resolve("earlier-release-build.log");
        run(root, log, "git", "worktree", "add", "--detach", tree.toString(), COMMIT);
        try {
            run(
                    tree,
                    log,
                    "mvn",
                    "-B",
                    "-q",
                    "package",
                    // its tests are not run, so not compiled either: a third of the build's CPU, taken from the
                    // scenarios running meanwhile
                    "-Dmaven.test.skip=true",
                    "-Dspotless.check.skip=true",
                    "-pl",
                    "job",
                    "-am");
            Files.createDirectories(jar.getParent());
            Files.copy(
                    tree.resolve("job/target/bioner-stream-job-0.1.0-SNAPSHOT.jar"),
                    jar,
                    StandardCopyOption.REPLACE_EXISTING);
        } finally {
            run(root, log, "git", "worktree", "remove", "--force", tree.toString());
        }
        return jar;
    }

    private static void run(Path dir, Path log, String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(List.of(command))
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        if (!p.waitFor(20, TimeUnit.MINUTES) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new AssertionError("building the release before linking (" + COMMIT + ") failed at "
                    + String.join(" ", command) + " in " + dir + " (a clone without this commit in its history "
                    + "cannot build it): " + log + ":\n" + tail(log));
        }
    }

    private static String tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    }
}
