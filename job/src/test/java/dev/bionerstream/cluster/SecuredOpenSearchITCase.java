package dev.bionerstream.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.demo.OwnMiniCluster;
import dev.bionerstream.demo.RunsBesideOthers;
import dev.bionerstream.sink.opensearch.OpenSearchSinkConfig;
import dev.bionerstream.sink.opensearch.TestDocuments;
import dev.bionerstream.sink.opensearch.TestSinks;
import dev.bionerstream.viewer.IndexGateway;
import dev.bionerstream.viewer.ViewerConfig;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.formats.avro.typeutils.AvroTypeInfo;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.ExceptionUtils;
import org.apache.flink.util.FileUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The index sink and the search page against OpenSearch secured as production runs it: the security
 * plugin from Maven Central with TLS (a CA and certificate made for the run) and basic auth, the job's
 * user holding exactly the role of {@code k8s/opensearch/roles.yml} (read from that file, so the two
 * cannot drift), and the credentials and CA taken from the environment variables the manifests set
 * from the Secret {@code opensearch-credentials}. A password the cluster does not know fails with an
 * error that says so, and the documents wait: once the cluster accepts it, each is indexed once.
 */
@RunsBesideOthers
class SecuredOpenSearchITCase {
    @RegisterExtension
    static final OwnMiniCluster FLINK = new OwnMiniCluster(1);

    private static final Path DIR =
            Path.of("target", "secured-opensearch-itcase").toAbsolutePath();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String USER = "bioner-stream";
    private static final String ROTATED_USER = "bioner-rotated";
    private static final String INDEX = "bioner-documents";

    private static OpenSearchProcess node;
    private static TestCertificates certs;
    private static final String password = "Job-" + UUID.randomUUID();

    @BeforeAll
    static void startSecuredNode() throws Exception {
        FileUtils.deleteDirectory(DIR.toFile());
        certs = TestCertificates.make(DIR.resolve("certs"));
        String roles = Files.readString(ClusterSetup.repositoryRoot().resolve("k8s/opensearch/roles.yml"));
        node = OpenSearchProcess.secured(
                        DIR.resolve("node"),
                        certs,
                        Map.of(USER, password, ROTATED_USER, "Before-" + UUID.randomUUID()),
                        roles,
                        Map.of("bioner_stream", List.of(USER, ROTATED_USER)))
                .start();
    }

    @AfterAll
    static void stopNode() throws Exception {
        if (node != null) {
            node.close();
        }
    }

    @Test
    void theJobIndexesOverTlsWithTheRoleAndCredentialsOfTheManifestsAndThePageSearchesIt() throws Exception {
        List<DocumentEntities> input = TestDocuments.generate(150, 11);
        JobClient job = submit(input, environment(USER, password), false);
        job.getJobExecutionResult().get();

        assertThat(ids(INDEX)).containsAll(eventIds(input));
        IndexGateway page = new IndexGateway(
                new ViewerConfig("127.0.0.1", 0, URI.create(node.url()), INDEX, USER, password, certs.caPem()));
        assertThat(page.refreshedCount())
                .as("the page's count, as the job's user")
                .isEqualTo(count(INDEX));
    }

    @Test
    void aPasswordTheClusterDoesNotKnowFailsClearlyAndTheDocumentsWaitUntilItIsAccepted() throws Exception {
        // other documents than the other test's (150 from 0), which may have indexed its own already
        List<DocumentEntities> input = TestDocuments.generate(80, 23, 1_000);
        String rotated = "Rotated-" + UUID.randomUUID();

        assertThatThrownBy(() -> submit(input, environment(ROTATED_USER, rotated), false)
                        .getJobExecutionResult()
                        .get())
                .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                        .contains("not usable (HTTP 401)")
                        .contains("does not accept the credentials")
                        .contains("OPENSEARCH_PASSWORD"));

        JobClient job = submit(input, environment(ROTATED_USER, rotated), true);
        Thread.sleep(10_000); // failing and restarting meanwhile
        assertThat(job.getJobStatus().get().isGloballyTerminalState())
                .as("the job keeps trying, not finished")
                .isFalse();
        assertThat(ids(INDEX)).doesNotContainAnyElementsOf(eventIds(input));
        OpenSearchProcess.Answer change = node.request(
                "PUT", "/_plugins/_security/api/internalusers/" + ROTATED_USER, "{\"password\": \"" + rotated + "\"}");
        assertThat(change.status()).as(change.body()).isIn(200, 201);
        job.getJobExecutionResult().get();

        assertThat(ids(INDEX)).containsAll(eventIds(input));
    }

    private static List<String> eventIds(List<DocumentEntities> input) {
        return input.stream().map(DocumentEntities::getEventId).toList();
    }

    private static Map<String, String> environment(String user, String secret) {
        Map<String, String> env = new HashMap<>();
        env.put(OpenSearchSinkConfig.ENV_HOSTS, node.url());
        env.put(OpenSearchSinkConfig.ENV_USERNAME, user);
        env.put(OpenSearchSinkConfig.ENV_PASSWORD, secret);
        env.put(OpenSearchSinkConfig.ENV_CA, certs.caPem());
        return env;
    }

    private static JobClient submit(List<DocumentEntities> input, Map<String, String> variables, boolean restart)
            throws Exception {
        Configuration conf = new Configuration();
        if (restart) {
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 1_000);
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofSeconds(1));
        } else {
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        }
        StreamExecutionEnvironment env = FLINK.environment(conf, 1);
        env.fromData(input, new AvroTypeInfo<>(DocumentEntities.class))
                .sinkTo(TestSinks.documents(
                        variables,
                        "--opensearch.bulk.max-actions=40",
                        "--opensearch.bulk.max-buffered=120",
                        "--opensearch.bulk.flush-interval=200 ms"));
        return env.executeAsync("secured-opensearch-it");
    }

    private static long count(String index) throws Exception {
        node.request("POST", "/" + index + "/_refresh", null);
        return JSON.readTree(node.request("GET", "/" + index + "/_count", null).body())
                .path("count")
                .asLong();
    }

    private static TreeSet<String> ids(String index) throws Exception {
        node.request("POST", "/" + index + "/_refresh", null);
        JsonNode hits = JSON.readTree(
                        node.request("POST", "/" + index + "/_search", "{\"size\": 1000, \"_source\": false}")
                                .body())
                .path("hits")
                .path("hits");
        TreeSet<String> ids = new TreeSet<>();
        hits.forEach(h -> ids.add(h.path("_id").asText()));
        return ids;
    }
}
