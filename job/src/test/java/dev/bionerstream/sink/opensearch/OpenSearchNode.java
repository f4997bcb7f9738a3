package dev.bionerstream.sink.opensearch;

import dev.bionerstream.demo.EmbeddedOpenSearch;
import dev.bionerstream.demo.SharedService;
import java.io.IOException;
import java.util.Map;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.transport.OpenSearchTransport;

/** The demo's {@link EmbeddedOpenSearch} node with a client built as the sink builds its own. */
public final class OpenSearchNode implements AutoCloseable {
    public final String url;
    public final OpenSearchClient client;
    private final EmbeddedOpenSearch node;
    private final OpenSearchTransport transport;

    private OpenSearchNode(EmbeddedOpenSearch node) {
        this.node = node;
        this.url = node.url();
        this.transport = OpenSearchClients.transport(TestSinks.config(Map.of(), "--opensearch.hosts=" + url));
        this.client = new OpenSearchClient(transport);
    }

    public static OpenSearchNode start() throws IOException {
        return new OpenSearchNode(EmbeddedOpenSearch.start());
    }

    /** One node for every test class of the test JVM that registers it, each on indexes of its own. */
    public static SharedService<OpenSearchNode> shared() {
        return new SharedService<>("opensearch", OpenSearchNode::start);
    }

    /** Documents in {@code index} once refreshed, so every write acknowledged so far is counted. */
    public long count(String index) throws IOException {
        client.indices().refresh(r -> r.index(index));
        return client.count(c -> c.index(index)).count();
    }

    @Override
    public void close() throws IOException {
        try {
            transport.close();
        } finally {
            node.close();
        }
    }
}
