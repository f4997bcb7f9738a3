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
                .hasMessageStartingWith("--opensearch.hosts is required")
                .hasMessageContaining("http://localhost:9200")
                .hasMessageContaining("OPENSEARCH_HOSTS");
    }

    @Test
    void hostMustBeAnHttpUrl() {
        assertThatThrownBy(() -> config("--opensearch.hosts", "localhost:9200"))
                .hasMessageContaining("--opensearch.hosts entry 'localhost:9200' is not an http(s) URL")
                .hasMessageContaining("http://host:9200");
        assertThatThrownBy(() -> config("--opensearch.hosts", "ftp://os:21"))
                .hasMessageContaining("not an http(s) URL");
        assertThatThrownBy(() -> config("--opensearch.hosts", "http://os:9200/bioner-documents"))
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
                .hasMessageStartingWith("--opensearch.password is not set, but --opensearch.username is")
                .hasMessageContaining("both");
    }

    @Test
    void bufferMustHoldMoreThanOneBulkRequest() {
        assertThatThrownBy(() -> config(
                        "--opensearch.hosts",
                        "http://os:9200",
                        "--opensearch.bulk.max-actions",
                        "500",
                        "--opensearch.bulk.max-buffered",
                        "500"))
                .hasMessageContaining("--opensearch.bulk.max-buffered (500)")
                .hasMessageContaining("at least 1000");
    }

    @Test
    void numbersAndDurationsMustBePositive() {
        assertThatThrownBy(() -> config("--opensearch.hosts", "http://os:9200", "--opensearch.bulk.max-in-flight", "0"))
                .hasMessage("--opensearch.bulk.max-in-flight must be >= 1, got 0");
        assertThatThrownBy(() -> config("--opensearch.hosts", "http://os:9200", "--opensearch.retry.max-retries", "-1"))
                .hasMessage("--opensearch.retry.max-retries must be 0 (fails the job at the first failed bulk item) "
                        + "or more, got -1");
        assertThatThrownBy(() -> config(
                        "--opensearch.hosts",
                        "http://os:9200",
                        "--opensearch.retry.initial-backoff",
                        "5 s",
                        "--opensearch.retry.max-backoff",
                        "1 s"))
                .hasMessage("--opensearch.retry.max-backoff (1 s) is shorter than --opensearch.retry.initial-backoff "
                        + "(5 s): raise max-backoff or lower initial-backoff.");
        assertThatThrownBy(() ->
                        config("--opensearch.hosts", "http://os:9200", "--opensearch.bulk.flush-interval", "0 ms"))
                .hasMessage("--opensearch.bulk.flush-interval must be a positive duration (e.g. 1 s), got 0 ms");
        assertThatThrownBy(() -> config("--opensearch.hosts", "http://os:9200", "--opensearch.bulk.max-size", "0"))
                .hasMessage("--opensearch.bulk.max-size must be positive (e.g. 5 mb), got 0 bytes");
    }

    @Test
    void builtSinkKeepsTheValidatedConfig() {
        OpenSearchSink<?> sink = TestSinks.documents(
                "--opensearch.hosts",
                "http://a:9201,http://b:9202",
                "--opensearch.index",
                "docs",
                "--opensearch.username",
                "u",
                "--opensearch.password",
                "p");
        assertThat(sink.config().hosts()).containsExactly("http://a:9201", "http://b:9202");
        assertThat(sink.config().index()).isEqualTo("docs");
        assertThat(sink.config().username()).isEqualTo("u");
    }

    private static OpenSearchSinkConfig config(String... options) {
        return TestSinks.config(NO_ENV, options);
    }
}
