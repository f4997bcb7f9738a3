package dev.bionerstream.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.demo.EmbeddedKafka;
import dev.bionerstream.demo.Heartbeat;
import dev.bionerstream.demo.LocalPipeline;
import dev.bionerstream.demo.OwnMiniCluster;
import dev.bionerstream.demo.RunsBesideOthers;
import dev.bionerstream.demo.SampleAbstracts;
import dev.bionerstream.demo.SharedService;
import dev.bionerstream.demo.TestPipelines;
import dev.bionerstream.demo.TopicWriter;
import dev.bionerstream.serving.SessionFactory;
import dev.bionerstream.serving.TestingMrcSession;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.util.FileUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The search index through the faults a cluster has, while the job runs and documents are updated
 * and deleted: the OpenSearch node (its own JVM) killed with SIGKILL and restarted; gone for 75 s, far
 * longer than the sink's retries, so the job fails over and restarts until it is back; then refusing
 * every write with HTTP 429 for 30 s (the flood-stage block a full disk sets) while updates arrive.
 * At the end the index holds exactly what the documents topic holds last for each document: the
 * same documents, each once, with its latest content, and none of the deleted ones; the retries
 * show in the sink's metrics.
 */
@RunsBesideOthers
class IndexFaultsITCase {
    @RegisterExtension
    static final SharedService<EmbeddedKafka> KAFKA = SharedService.kafka();

    private static final Path DIR = Path.of("target", "index-faults-itcase").toAbsolutePath();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String INDEX = "bioner-documents";
    private static final int ABSTRACTS = 120;
    private static final Duration STALL = Duration.ofMinutes(5);

    private static final InMemoryReporter METRICS = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final OwnMiniCluster FLINK = new OwnMiniCluster(1, METRICS.addToConfiguration(new Configuration()));

    @Test
    void everyDocumentIsIndexedOnceWithItsLatestContentThroughKillsAnOutageAndRejections() throws Exception {
        FileUtils.deleteDirectory(DIR.toFile());
        List<String> sample = SampleAbstracts.load(ABSTRACTS);
        SessionFactory model = (bundle, options) -> {
            TestingMrcSession slow = new TestingMrcSession(Set.of());
            slow.delayMillis = 100;
            return slow;
        };
        Configuration flink = new Configuration();
        flink.setString("restart-strategy.type", "fixed-delay");
        flink.setString("restart-strategy.fixed-delay.attempts", "1000");
        flink.setString("restart-strategy.fixed-delay.delay", "2 s");
        try (OpenSearchProcess node =
                OpenSearchProcess.plain(DIR.resolve("node")).start()) {
            Configuration options = Configuration.fromMap(Map.of(
                    "job.checkpoint-interval", "1 s",
                    "async.capacity", "2",
                    "opensearch.hosts", node.url(),
                    "opensearch.bulk.flush-interval", "200 ms",
                    "opensearch.request-timeout", "10 s",
                    "opensearch.retry.max-retries", "3",
                    "opensearch.retry.initial-backoff", "200 ms",
                    "opensearch.retry.max-backoff", "2 s"));
            try (LocalPipeline run =
                    TestPipelines.start(KAFKA, "index-faults", options, FLINK.environment(flink, 1), model)) {
                run.produce(sample.subList(0, ABSTRACTS / 2));
                awaitIndexed(node, 5);
                node.kill(); // SIGKILL mid-stream
                Thread.sleep(10_000);
                node.start();

                run.produce(sample.subList(ABSTRACTS / 2, ABSTRACTS));
                List<String> deleted = new ArrayList<>();
                for (int i = 0; i < 10; i++) {
                    send(run, id(sample.get(i)), updated(sample.get(i), "first update"));
                    String gone = id(sample.get(20 + i));
                    send(run, gone, null); // a tombstone deletes the document
                    deleted.add(gone);
                }
                awaitIndexed(node, count(node) + 10);
                long restartsBefore = restarts();
                node.kill();
                try (Heartbeat h = Heartbeat.start("75 s without the node (the job restarts until it is back)")) {
                    Thread.sleep(75_000);
                }
                node.start();
                assertThat(restarts())
                        .as("job restarts while the node was gone (the sink's retries are shorter)")
                        .isGreaterThan(restartsBefore);

                long retriedBefore = sum("opensearchRetriedDocuments");
                block(node, true); // every write refused with 429, deletions still allowed
                for (int i = 0; i < 10; i++) {
                    send(run, id(sample.get(i)), updated(sample.get(i), "second update"));
                }
                Thread.sleep(30_000);
                assertThat(sum("opensearchRetriedDocuments"))
                        .as("documents retried while the index refused writes with 429")
                        .isGreaterThan(retriedBefore);
                block(node, false);

                Map<String, DocumentEntities> latest = awaitTopic(run, deleted);
                Map<String, String> expected = new TreeMap<>();
                latest.values().forEach(d -> expected.put(d.getEventId(), d.getTitle()));
                Map<String, String> indexed = awaitIndexMatches(node, expected);
                assertThat(indexed)
                        .as("the index against the documents topic's latest record per document")
                        .isEqualTo(expected);
                assertThat(indexed.values())
                        .filteredOn(t -> t.endsWith("(second update)"))
                        .hasSize(10);
                assertThat(indexed.keySet())
                        .as("deleted documents")
                        .doesNotContainAnyElementsOf(run.documents.tombstones());
                assertThat(sum("opensearchFailedBulkRequests"))
                        .as("bulk requests failed, in the sink's metrics")
                        .isPositive();
            }
        }
    }

    private static String id(String abstractJson) throws Exception {
        return JSON.readTree(abstractJson).get("id").asText();
    }

    private static String updated(String abstractJson, String change) throws Exception {
        ObjectNode record = (ObjectNode) JSON.readTree(abstractJson);
        record.put("title", record.get("title").asText() + " (" + change + ")");
        return record.toString();
    }

    private static void send(LocalPipeline run, String key, String value) {
        TopicWriter.produceKeyed(
                run.kafka.bootstrapServers(), run.config.kafka().inputTopic(), key, value);
    }

    /** Sets or lifts the block OpenSearch puts on an index when the disk passes the flood stage. */
    private static void block(OpenSearchProcess node, boolean on) throws Exception {
        OpenSearchProcess.Answer answer = node.request(
                "PUT",
                "/" + INDEX + "/_settings",
                "{\"index.blocks.read_only_allow_delete\": " + (on ? "true" : "null") + "}");
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    }

    private static long count(OpenSearchProcess node) throws Exception {
        node.request("POST", "/" + INDEX + "/_refresh", null);
        OpenSearchProcess.Answer answer = node.request("GET", "/" + INDEX + "/_count", null);
        return answer.status() == 200
                ? JSON.readTree(answer.body()).path("count").asLong()
                : 0;
    }

    private static void awaitIndexed(OpenSearchProcess node, long documents) throws Exception {
        long deadline = System.nanoTime() + STALL.toNanos();
        while (count(node) < documents) {
            assertThat(System.nanoTime())
                    .as("%d documents indexed within %s", documents, STALL)
                    .isLessThan(deadline);
            Thread.sleep(500);
        }
    }

    /** The documents topic's latest record per document, once every document and deletion is on it. */
    private static Map<String, DocumentEntities> awaitTopic(LocalPipeline run, List<String> deleted) {
        run.documents.pollWhileProgressing(
                "every update and deletion",
                l -> run.documents.tombstones().containsAll(deleted)
                        && run.documents.current().size() == ABSTRACTS - deleted.size()
                        && run.documents.current().values().stream()
                                        .filter(d -> d.getTitle().endsWith("(second update)"))
                                        .count()
                                == 10,
                STALL);
        return run.documents.current();
    }

    /** The index's documents as id to title, once they equal {@code expected} or stop changing for {@link #STALL}. */
    private static Map<String, String> awaitIndexMatches(OpenSearchProcess node, Map<String, String> expected)
            throws Exception {
        Map<String, String> indexed = Map.of();
        long lastChange = System.nanoTime();
        while (System.nanoTime() - lastChange < STALL.toNanos()) {
            node.request("POST", "/" + INDEX + "/_refresh", null);
            JsonNode hits = JSON.readTree(node.request(
                                    "POST",
                                    "/" + INDEX + "/_search",
                                    "{\"size\": 1000, \"_source\": [\"title\"], \"version\": true}")
                            .body())
                    .path("hits")
                    .path("hits");
            Map<String, String> now = new TreeMap<>();
            hits.forEach(h -> now.put(
                    h.path("_id").asText(), h.path("_source").path("title").asText()));
            if (now.equals(expected)) {
                return now;
            }
            if (!now.equals(indexed)) {
                indexed = now;
                lastChange = System.nanoTime();
            }
            Thread.sleep(1000);
        }
        return indexed;
    }

    /** The job's restarts so far (Flink's numRestarts). */
    private static long restarts() {
        return METRICS.getMetricsByGroup().values().stream()
                .map(m -> m.get("numRestarts"))
                .filter(org.apache.flink.metrics.Gauge.class::isInstance)
                .mapToLong(m -> ((Number) ((org.apache.flink.metrics.Gauge<?>) m).getValue()).longValue())
                .max()
                .orElse(0);
    }

    /** A counter of the sink summed over every attempt of its subtask (metrics of failed attempts are kept). */
    private static long sum(String counter) {
        return METRICS.getMetricsByGroup().values().stream()
                .map(m -> m.get(counter))
                .filter(Counter.class::isInstance)
                .mapToLong(m -> ((Counter) m).getCount())
                .sum();
    }
}
