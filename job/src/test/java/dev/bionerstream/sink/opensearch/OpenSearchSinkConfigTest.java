package dev.bionerstream.sink.opensearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.junit.jupiter.api.Test;

class OpenSearchSinkConfigTest {
    private static final Map<String, String> NO_ENV = Map.of();

    @Test
    void readsTheSinkOptionsWithDefaults() {
        Configuration conf = new Configuration();
        conf.set(OpenSearchSinkOptions.HOSTS, "http://os-1:9200, https://os-2");
        conf.set(OpenSearchSinkOptions.BULK_MAX_ACTIONS, 100);
        conf.set(OpenSearchSinkOptions.BULK_MAX_SIZE, MemorySize.parse("2mb"));

        OpenSearchSinkConfig c = OpenSearchSinkConfig.from(conf, NO_ENV);

        assertThat(c.hosts()).containsExactly("http://os-1:9200", "https://os-2:9200");
        assertThat(c.index()).isEqualTo("bioner-documents");
        assertThat(c.username()).isNull();
        assertThat(c.createIndex()).isTrue();
        assertThat(c.maxBatchSize()).isEqualTo(100);
        assertThat(c.maxBatchSizeInBytes()).isEqualTo(2L * 1024 * 1024);
        assertThat(c.maxInFlightRequests()).isEqualTo(2);
        assertThat(c.retryPolicy().maxRetries()).isEqualTo(8);
        assertThat(c.requestTimeout()).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void environmentStandsInForUnsetHostsAndCredentials() {
        Map<String, String> env = Map.of(
                "OPENSEARCH_HOSTS",
                "https://search.internal:9200",
                "OPENSEARCH_USERNAME",
                "bioner",
                "OPENSEARCH_PASSWORD",
                "from-a-secret");
        Configuration conf = new Configuration();
        assertThat(OpenSearchSinkConfig.isEnabled(conf, env)).isTrue();
        assertThat(OpenSearchSinkConfig.isEnabled(conf, NO_ENV)).isFalse();

        OpenSearchSinkConfig c = OpenSearchSinkConfig.from(conf, env);
        assertThat(c.hosts()).containsExactly("https://search.internal:9200");
        assertThat(c.username()).isEqualTo("bioner");
        assertThat(c.password()).isEqualTo("from-a-secret");
        assertThat(c.toString()).doesNotContain("from-a-secret").contains("password=***");

        conf.set(OpenSearchSinkOptions.USERNAME, "explicit");
        assertThat(OpenSearchSinkConfig.from(conf, env).username()).isEqualTo("explicit");
    }

    @Test
    void missingHostsSaysWhichOptionToSet() {
        assertThatThrownBy(() -> OpenSearchSinkConfig.from(new Configuration(), NO_ENV))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("opensearch.hosts")
                .hasMessageContaining("http://localhost:9200")
                .hasMessageContaining("OPENSEARCH_HOSTS");
    }

    @Test
    void hostMustBeAnHttpUrl() {
        assertThatThrownBy(() ->
                        OpenSearchSink.builder().setHosts("localhost:9200").build())
                .hasMessageContaining("'localhost:9200' is not an http(s) URL")
                .hasMessageContaining("http://host:9200");
        assertThatThrownBy(
                        () -> OpenSearchSink.builder().setHosts("ftp://os:21").build())
                .hasMessageContaining("not an http(s) URL");
        assertThatThrownBy(() -> OpenSearchSink.builder()
                        .setHosts("http://os:9200/bioner-documents")
                        .build())
                .hasMessageContaining("has a path");
    }

    @Test
    void indexNameFollowsOpenSearchRules() {
        OpenSearchSinkConfig.checkIndexName("bioner-documents");
        OpenSearchSinkConfig.checkIndexName("bioner_documents.v2");
        assertThatThrownBy(() -> OpenSearchSinkConfig.checkIndexName("Bioner"))
                .hasMessageContaining("upper-case")
                .hasMessageContaining("opensearch.index");
        assertThatThrownBy(() -> OpenSearchSinkConfig.checkIndexName("_docs"))
                .hasMessageContaining("cannot start with");
        assertThatThrownBy(() -> OpenSearchSinkConfig.checkIndexName("a b")).hasMessageContaining("forbids");
        assertThatThrownBy(() -> OpenSearchSinkConfig.checkIndexName("a*")).hasMessageContaining("forbids");
        assertThatThrownBy(() -> OpenSearchSinkConfig.checkIndexName("..")).hasMessageContaining("reserved");
        assertThatThrownBy(() -> OpenSearchSinkConfig.checkIndexName("x".repeat(256)))
                .hasMessageContaining("255");
        assertThatThrownBy(() -> OpenSearchSinkConfig.checkIndexName(" ")).hasMessageContaining("empty");
    }

    @Test
    void credentialsComeInPairs() {
        Configuration conf = new Configuration();
        conf.set(OpenSearchSinkOptions.HOSTS, "http://os:9200");
        conf.set(OpenSearchSinkOptions.USERNAME, "bioner");
        assertThatThrownBy(() -> OpenSearchSinkConfig.from(conf, NO_ENV))
                .hasMessageContaining("both")
                .hasMessageContaining("opensearch.password");
    }

    @Test
    void bufferMustHoldMoreThanOneBulkRequest() {
        assertThatThrownBy(() -> OpenSearchSink.builder()
                        .setHosts("http://os:9200")
                        .setBulkMaxActions(500)
                        .setMaxBufferedRequests(500)
                        .build())
                .hasMessageContaining("opensearch.bulk.max-buffered (500)")
                .hasMessageContaining("at least 1000");
    }

    @Test
    void numbersAndDurationsMustBePositive() {
        assertThatThrownBy(() -> OpenSearchSink.builder()
                        .setHosts("http://os:9200")
                        .setMaxInFlightRequests(0)
                        .build())
                .hasMessageContaining("--opensearch.bulk.max-in-flight must be >= 1, got 0");
        assertThatThrownBy(() -> OpenSearchSink.builder()
                        .setHosts("http://os:9200")
                        .setRetries(-1, Duration.ofMillis(10), Duration.ofSeconds(1))
                        .build())
                .hasMessageContaining("opensearch.retry.max-retries");
        assertThatThrownBy(() -> OpenSearchSink.builder()
                        .setHosts("http://os:9200")
                        .setRetries(3, Duration.ofSeconds(5), Duration.ofSeconds(1))
                        .build())
                .hasMessageContaining("raise max-backoff");
        assertThatThrownBy(() -> OpenSearchSink.builder()
                        .setHosts("http://os:9200")
                        .setBulkFlushInterval(Duration.ZERO)
                        .build())
                .hasMessageContaining("opensearch.bulk.flush-interval");
    }

    @Test
    void builtSinkKeepsTheValidatedConfig() {
        OpenSearchSink sink = OpenSearchSink.builder()
                .setHosts("http://a:9201,http://b:9202")
                .setIndex("docs")
                .setCredentials("u", "p")
                .build();
        assertThat(sink.config().hosts()).containsExactly("http://a:9201", "http://b:9202");
        assertThat(sink.config().index()).isEqualTo("docs");
        assertThat(OpenSearchSink.of(sink.config()).config()).isEqualTo(sink.config());
    }
}
