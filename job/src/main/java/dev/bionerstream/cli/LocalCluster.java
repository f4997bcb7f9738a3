package dev.bionerstream.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.configuration.WebOptions;

/** Settings of the Flink cluster the command line starts in its own process. */
final class LocalCluster {
    private LocalCluster() {}

    /** Dashboard/REST on {@code port} (0: any free port); every endpoint serves this machine only. */
    static Configuration configuration(int port) {
        Configuration c = new Configuration();
        c.set(RestOptions.PORT, port);
        c.set(RestOptions.BIND_ADDRESS, "localhost");
        c.set(RestOptions.ADDRESS, "localhost");
        c.set(JobManagerOptions.BIND_HOST, "localhost");
        c.set(JobManagerOptions.ADDRESS, "localhost");
        c.set(TaskManagerOptions.BIND_HOST, "localhost");
        c.set(TaskManagerOptions.HOST, "localhost");
        return c;
    }

    /**
     * As {@link #configuration(int)}, with every file the cluster writes in {@code tmp}: the RPC
     * system's extracted jar (21 MB), the cluster's working directory ({@code minicluster_*}), blobs,
     * spill and shuffle files, the dashboard's uploads. Flink deletes them when the cluster closes;
     * a process that ends without closing it (Ctrl-C) left them in the system's temporary directory.
     */
    static Configuration configuration(int port, Path tmp) {
        Configuration c = configuration(port);
        c.set(CoreOptions.TMP_DIRS, tmp.toString());
        c.set(WebOptions.TMP_DIR, tmp.toString());
        return c;
    }

    /**
     * Waits, up to {@code timeout}, until the clusters started with {@link #configuration(int, Path)}
     * have closed, which they do on their own once their job ends: deleting its working directory
     * ({@code minicluster_*}) is a cluster's last step, after its RPC system and its jar. What stays
     * after (the dashboard's empty upload folder) Flink deletes only at the JVM's exit.
     */
    static void awaitClosed(Path tmp, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (workingDirectories(tmp) > 0 && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
    }

    private static long workingDirectories(Path tmp) throws IOException {
        if (!Files.isDirectory(tmp)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(tmp)) {
            return files.filter(f -> f.getFileName().toString().startsWith("minicluster_"))
                    .count();
        }
    }
}
