package dev.bionerstream.sink.opensearch;

import dev.bionerstream.job.JobOptions;
import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Settings of the OpenSearch sink, validated once by {@link OpenSearchSinkBuilder#buildConfig()}.
 *
 * <pre>{@code
 * if (OpenSearchSinkConfig.isEnabled(conf)) {
 *     documents.sinkTo(OpenSearchSink.builder().setConfig(OpenSearchSinkConfig.from(conf)).build());
 * }
 * }</pre>
 *
 * @param hosts node URLs, {@code http[s]://host:port}
 * @param index index name
 * @param username basic-auth user, or null
 * @param password basic-auth password, or null (never printed by {@link #toString()})
 * @param createIndex create the index with the mapping in the jar when it is missing
 * @param maxBatchSize documents per bulk request at most
 * @param maxBatchSizeInBytes JSON bytes per bulk request at most (and per document)
 * @param maxTimeInBuffer a partly filled bulk request is sent after this long
 * @param maxInFlightRequests bulk requests in flight per subtask
 * @param maxBufferedRequests documents buffered per subtask before the sink backpressures
 * @param retryPolicy retries of retryable failures, with exponential backoff
 * @param requestTimeout HTTP response timeout of one bulk request
 */
public record OpenSearchSinkConfig(
        List<String> hosts,
        String index,
        @Nullable String username,
        @Nullable String password,
        boolean createIndex,
        int maxBatchSize,
        long maxBatchSizeInBytes,
        Duration maxTimeInBuffer,
        int maxInFlightRequests,
        int maxBufferedRequests,
        RetryPolicy retryPolicy,
        Duration requestTimeout)
        implements Serializable {

    /** Environment variables read when the matching option is unset (filled from a Secret on Kubernetes). */
    public static final String ENV_HOSTS = "OPENSEARCH_HOSTS";

    public static final String ENV_USERNAME = "OPENSEARCH_USERNAME";
    public static final String ENV_PASSWORD = "OPENSEARCH_PASSWORD";

    public OpenSearchSinkConfig {
        hosts = List.copyOf(hosts);
    }

    /** Reads and validates the {@code opensearch.*} options, falling back to the environment. */
    public static OpenSearchSinkConfig from(ReadableConfig conf) {
        return from(conf, System.getenv());
    }

    public static OpenSearchSinkConfig from(ReadableConfig conf, Map<String, String> env) {
        return new OpenSearchSinkBuilder().configure(conf, env).buildConfig();
    }

    /** True when hosts are given by {@code opensearch.hosts} or {@code OPENSEARCH_HOSTS}: the index sink is on. */
    public static boolean isEnabled(ReadableConfig conf) {
        return isEnabled(conf, System.getenv());
    }

    public static boolean isEnabled(ReadableConfig conf, Map<String, String> env) {
        String hosts = conf.getOptional(JobOptions.OPENSEARCH_HOSTS).orElse(env.get(ENV_HOSTS));
        return hosts != null && !hosts.isBlank();
    }

    /**
     * How long the async sink waits for a bulk request's outcome before it sends the request again:
     * the HTTP timeout plus the longest backoff a retry may wait, plus a margin.
     */
    public long asyncRequestTimeoutMillis() {
        return requestTimeout.plus(retryPolicy.maxBackoff()).toMillis() + 5_000;
    }

    @Override
    public String toString() {
        return "OpenSearchSinkConfig[hosts=" + hosts + ", index=" + index + ", username=" + username
                + ", password=" + (password == null ? "none" : "***") + ", createIndex=" + createIndex
                + ", maxBatchSize=" + maxBatchSize + ", maxBatchSizeInBytes=" + maxBatchSizeInBytes
                + ", maxTimeInBuffer=" + maxTimeInBuffer + ", maxInFlightRequests=" + maxInFlightRequests
                + ", maxBufferedRequests=" + maxBufferedRequests + ", retryPolicy=" + retryPolicy
                + ", requestTimeout=" + requestTimeout + "]";
    }
}
