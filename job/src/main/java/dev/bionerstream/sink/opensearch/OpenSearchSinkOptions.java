package dev.bionerstream.sink.opensearch;

import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

/**
 * The index sink's settings as Flink {@link ConfigOption}s ({@code opensearch.*}); unset hosts,
 * username and password fall back to the {@code OPENSEARCH_HOSTS}, {@code OPENSEARCH_USERNAME} and
 * {@code OPENSEARCH_PASSWORD} environment variables, so credentials can come from a Secret.
 */
public final class OpenSearchSinkOptions {
    private OpenSearchSinkOptions() {}

    public static final ConfigOption<String> HOSTS = ConfigOptions.key("opensearch.hosts")
            .stringType()
            .noDefaultValue()
            .withDescription(
                    "OpenSearch URLs, http[s]://host:port, comma-separated (port 9200 when omitted); the index sink is off when unset. Environment: OPENSEARCH_HOSTS.");
    public static final ConfigOption<String> INDEX = ConfigOptions.key("opensearch.index")
            .stringType()
            .defaultValue("bioner-documents")
            .withDescription(
                    "Index of per-document entity records, created with the mapping in the jar when missing; lower case, none of \\ / * ? \" < > | , # : or spaces, not starting with -, _ or +.");
    public static final ConfigOption<String> USERNAME = ConfigOptions.key("opensearch.username")
            .stringType()
            .noDefaultValue()
            .withDescription("Basic-auth user. Environment: OPENSEARCH_USERNAME (e.g. from a Secret).");
    public static final ConfigOption<String> PASSWORD = ConfigOptions.key("opensearch.password")
            .stringType()
            .noDefaultValue()
            .withDescription(
                    "Basic-auth password; set both or neither. Environment: OPENSEARCH_PASSWORD (e.g. from a Secret).");
    public static final ConfigOption<String> CA = ConfigOptions.key("opensearch.tls.ca")
            .stringType()
            .noDefaultValue()
            .withDescription(
                    "CA certificate(s) in PEM, inline or as a file path, that an https cluster's certificate is checked against (e.g. the ca.crt its operator or cert-manager issues); unset: the JVM's trusted CAs. Environment: OPENSEARCH_CA_CERT (e.g. from a Secret).");
    public static final ConfigOption<Boolean> CREATE_INDEX = ConfigOptions.key("opensearch.create-index")
            .booleanType()
            .defaultValue(true)
            .withDescription(
                    "Create the index with the mapping in the jar (opensearch/documents-mapping.json) when it is missing, "
                            + "and add that mapping's newer fields to an index an earlier release created; turn off when the "
                            + "index or an index template is managed outside the job.");
    public static final ConfigOption<Integer> BULK_MAX_ACTIONS = ConfigOptions.key("opensearch.bulk.max-actions")
            .intType()
            .defaultValue(500)
            .withDescription("Documents per bulk request at most.");
    public static final ConfigOption<MemorySize> BULK_MAX_SIZE = ConfigOptions.key("opensearch.bulk.max-size")
            .memoryType()
            .defaultValue(MemorySize.parse("5mb"))
            .withDescription("Bytes of JSON per bulk request at most; also the largest single document accepted.");
    public static final ConfigOption<Duration> BULK_FLUSH_INTERVAL = ConfigOptions.key("opensearch.bulk.flush-interval")
            .durationType()
            .defaultValue(Duration.ofSeconds(1))
            .withDescription(
                    "A partly filled bulk request is sent after this long; every checkpoint also flushes and waits for all requests.");
    public static final ConfigOption<Integer> BULK_MAX_IN_FLIGHT = ConfigOptions.key("opensearch.bulk.max-in-flight")
            .intType()
            .defaultValue(2)
            .withDescription(
                    "Bulk requests in flight per sink subtask; when all are busy and the buffer is full the sink backpressures.");
    public static final ConfigOption<Integer> BULK_MAX_BUFFERED = ConfigOptions.key("opensearch.bulk.max-buffered")
            .intType()
            .defaultValue(2000)
            .withDescription(
                    "Documents buffered per sink subtask (kept in checkpoints); must exceed opensearch.bulk.max-actions.");
    public static final ConfigOption<Integer> MAX_RETRIES = ConfigOptions.key("opensearch.retry.max-retries")
            .intType()
            .defaultValue(8)
            .withDescription(
                    "Retries of a document after retryable failures (HTTP 429, 408, 5xx, network); after that the job fails and restarts from its last checkpoint. Other rejections (mapping errors, 401/403) fail at once.");
    public static final ConfigOption<Duration> RETRY_INITIAL_BACKOFF = ConfigOptions.key(
                    "opensearch.retry.initial-backoff")
            .durationType()
            .defaultValue(Duration.ofMillis(100))
            .withDescription("Wait before the first retry; doubles with each further retry.");
    public static final ConfigOption<Duration> RETRY_MAX_BACKOFF = ConfigOptions.key("opensearch.retry.max-backoff")
            .durationType()
            .defaultValue(Duration.ofSeconds(10))
            .withDescription("Longest wait between two retries.");
    public static final ConfigOption<Duration> REQUEST_TIMEOUT = ConfigOptions.key("opensearch.request-timeout")
            .durationType()
            .defaultValue(Duration.ofSeconds(60))
            .withDescription(
                    "HTTP response timeout of one bulk request; a request without an answer by then is sent again.");

    /** Every option above, for validating the keys a user gives. */
    public static final List<ConfigOption<?>> ALL = List.of(
            HOSTS,
            INDEX,
            USERNAME,
            PASSWORD,
            CA,
            CREATE_INDEX,
            BULK_MAX_ACTIONS,
            BULK_MAX_SIZE,
            BULK_FLUSH_INTERVAL,
            BULK_MAX_IN_FLIGHT,
            BULK_MAX_BUFFERED,
            MAX_RETRIES,
            RETRY_INITIAL_BACKOFF,
            RETRY_MAX_BACKOFF,
            REQUEST_TIMEOUT);
}
