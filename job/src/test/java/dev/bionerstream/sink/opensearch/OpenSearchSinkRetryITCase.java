package dev.bionerstream.sink.opensearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.demo.OwnMiniCluster;
import dev.bionerstream.demo.RunsBesideOthers;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.formats.avro.typeutils.AvroTypeInfo;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Retries and failures of the OpenSearch sink on a Flink MiniCluster, against {@link
 * TestingOpenSearchServer}: whole requests answered 503 and items answered 429 are sent again after
 * a backoff until indexed; an item rejected for its content fails the job with a message naming it.
 */
@RunsBesideOthers
class OpenSearchSinkRetryITCase {
    @RegisterExtension
    static final OwnMiniCluster FLINK = new OwnMiniCluster(1);

    private static final List<DocumentEntities> INPUT = TestDocuments.generate(120, 5);

    @Test
    void retryableFailuresAreRetriedUntilEveryDocumentIsIndexed() throws Exception {
        Set<String> rejectedOnce = INPUT.stream()
                .map(DocumentEntities::getEventId)
                .filter(id -> id.charAt(0) < '8')
                .collect(Collectors.toSet());
        try (TestingOpenSearchServer server = new TestingOpenSearchServer(
                (id, attempt) -> attempt == 1 && rejectedOnce.contains(id) ? 429 : 201, 2)) {
            run(server.url(), 5);

            assertThat(server.indexed())
                    .containsExactlyInAnyOrderElementsOf(
                            INPUT.stream().map(DocumentEntities::getEventId).toList());
            assertThat(server.bulkRequests()).isGreaterThan(INPUT.size() / 25 + 2);
            assertThat(rejectedOnce).isNotEmpty().allSatisfy(id -> assertThat(server.attempts(id))
                    .isGreaterThanOrEqualTo(2));
        }
    }

    @Test
    void aDocumentRefusedForItsContentGoesToTheDeadLetterIndexAndTheRestIsIndexed() throws Exception {
        String bad = INPUT.get(17).getEventId();
        try (TestingOpenSearchServer server =
                new TestingOpenSearchServer((id, attempt) -> id.equals(bad) ? 400 : 201, 0)) {
            run(server.url(), 5);
            assertThat(server.indexed()).hasSize(INPUT.size() - 1).doesNotContain(bad);
            assertThat(server.elsewhere()).containsExactly("bioner-documents-dlq/" + bad);
            assertThat(server.attempts(bad))
                    .as("refused for its content: not retried")
                    .isEqualTo(1);
        }
    }

    @Test
    void exhaustedRetriesFailTheJob() throws Exception {
        try (TestingOpenSearchServer server = new TestingOpenSearchServer((id, attempt) -> 429, 0)) {
            assertThatThrownBy(() -> run(server.url(), 2))
                    .satisfies(e -> assertThat(ExceptionUtils.findThrowable(e, OpenSearchSinkException.class))
                            .hasValueSatisfying(cause -> assertThat(cause.getMessage())
                                    .contains("after 2 retries")
                                    .contains("opensearch.retry.max-retries")));
        }
    }

    private static void run(String url, int maxRetries) throws Exception {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = FLINK.environment(conf, 1);
        env.fromData(INPUT, new AvroTypeInfo<>(DocumentEntities.class))
                .sinkTo(TestSinks.documents(
                        "--opensearch.hosts=" + url,
                        "--opensearch.index=bioner-documents",
                        "--opensearch.bulk.max-actions=25",
                        "--opensearch.bulk.max-buffered=100",
                        "--opensearch.bulk.flush-interval=100 ms",
                        "--opensearch.retry.max-retries=" + maxRetries,
                        "--opensearch.retry.initial-backoff=20 ms",
                        "--opensearch.retry.max-backoff=200 ms"));
        env.execute("opensearch-sink-retry-it");
    }
}
