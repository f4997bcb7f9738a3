package dev.bionerstream.cli;

import dev.bionerstream.demo.EmbeddedOpenSearch;
import dev.bionerstream.sink.opensearch.OpenSearchSinkOptions;
import dev.bionerstream.viewer.IndexGateway;
import dev.bionerstream.viewer.ViewerConfig;
import dev.bionerstream.viewer.ViewerServer;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.flink.configuration.Configuration;

/**
 * The demo's search side: an OpenSearch node on 127.0.0.1 that the job's index sink writes to, and
 * the search-and-view page over it, which also shows the Kafka dead letters the demo reads.
 */
final class DemoIndex implements AutoCloseable {
    private final EmbeddedOpenSearch node;
    private final ViewerArgs viewerArgs;
    private final String index;
    private final ConcurrentLinkedQueue<Instant> deadLetters = new ConcurrentLinkedQueue<>();
    private final double startSeconds;
    private ViewerServer viewer;
    private IndexGateway gateway;

    private DemoIndex(EmbeddedOpenSearch node, ViewerArgs viewerArgs, String index, double startSeconds) {
        this.node = node;
        this.viewerArgs = viewerArgs;
        this.index = index;
        this.startSeconds = startSeconds;
    }

    static DemoIndex start(ViewerArgs viewerArgs) throws IOException {
        long t0 = System.nanoTime();
        EmbeddedOpenSearch node = EmbeddedOpenSearch.start();
        return new DemoIndex(
                node, viewerArgs, OpenSearchSinkOptions.INDEX.defaultValue(), (System.nanoTime() - t0) / 1e9);
    }

    /** Turns the job's index sink on, towards this node (the sink creates the index with its mapping). */
    void configure(Configuration jobOptions) {
        jobOptions.set(OpenSearchSinkOptions.HOSTS, node.url());
        jobOptions.set(OpenSearchSinkOptions.INDEX, index);
    }

    /** Serves the page; call once the job runs. */
    String serve() throws IOException {
        ViewerConfig config = viewerArgs.config(node.url(), index, null, null, null);
        gateway = new IndexGateway(config);
        viewer = ViewerServer.start(
                config,
                since -> deadLetters.stream().filter(t -> !t.isBefore(since)).count(),
                new VocabularyConcepts());
        return String.format(
                "OpenSearch %s (started in %.1f s), index %s; search and view: %s",
                node.url(), startSeconds, index, viewer.url());
    }

    /** Counts a dead letter the demo read from Kafka, for the page's live line. */
    void deadLetterArrived() {
        deadLetters.add(Instant.now());
    }

    /**
     * Waits until {@code expected} documents are searchable, for as long as their count grows (the
     * sink flushes every second and at checkpoints); returns the count it reached.
     */
    long awaitSearchable(long expected, Duration stall) throws IOException, InterruptedException {
        long count = gateway.refreshedCount();
        long lastProgress = System.nanoTime();
        while (count < expected && System.nanoTime() - lastProgress < stall.toNanos()) {
            Thread.sleep(500);
            long now = gateway.refreshedCount();
            if (now > count) {
                count = now;
                lastProgress = System.nanoTime();
            }
        }
        return count;
    }

    String pageUrl() {
        return viewer.url();
    }

    String index() {
        return index;
    }

    @Override
    public void close() throws IOException {
        try {
            if (viewer != null) {
                viewer.close();
            }
        } finally {
            node.close();
        }
    }
}
