package dev.bionerstream.deploy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one of the repository's scripts as a user would, from its root (or a command from a folder),
 * stdout and stderr together.
 */
record RepositoryScript(int exitCode, String output) {
    /** Generous: a loaded 2-core machine starts Maven and imports torch slowly. */
    private static final long TIMEOUT_MINUTES = 5;

    /** {@code script} (relative to the root) with {@code args}, its environment changed by {@code env}. */
    static RepositoryScript run(Map<String, String> env, String script, String... args)
            throws IOException, InterruptedException {
        List<String> command =
                new ArrayList<>(List.of(DeployFiles.root().resolve(script).toString()));
        command.addAll(List.of(args));
        return run(env, DeployFiles.root(), command);
    }

    /** {@code command} run in {@code directory}, its environment changed by {@code env}. */
    static RepositoryScript run(Map<String, String> env, Path directory, List<String> command)
            throws IOException, InterruptedException {
        ProcessBuilder builder =
                new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true);
        builder.environment().putAll(env);
        Process p = builder.start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError(command + " did not exit within " + TIMEOUT_MINUTES + " min");
        }
        return new RepositoryScript(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }
}
