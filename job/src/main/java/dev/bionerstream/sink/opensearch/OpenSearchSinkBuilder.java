package dev.bionerstream.sink.opensearch;

import static dev.bionerstream.sink.opensearch.OpenSearchSinkOptions.*;

import dev.bionerstream.avro.DocumentEntities;
import java.time.Duration;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Builds an {@link OpenSearchSink}. Each setter sets one of the {@link OpenSearchSinkOptions};
 * {@link #build()} checks every setting and says how to fix a wrong one.
 *
 * <pre>{@code
 * OpenSearchSink sink = OpenSearchSink.builder()
 *         .setHosts("http://localhost:9200")
 *         .setIndex("bioner-documents")
 *         .build();
 * }</pre>
 */
public final class OpenSearchSinkBuilder {
    private final Configuration conf = new Configuration();
    private Map<String, String> env = Map.of();

    OpenSearchSinkBuilder() {}

    /** Takes the options set in {@code options}; unset hosts and credentials come from the environment {@code env}. */
    public OpenSearchSinkBuilder configure(ReadableConfig options, Map<String, String> env) {
        OpenSearchSinkOptions.ALL.forEach(o -> copy(options, o));
        this.env = Map.copyOf(env);
        return this;
    }

    private <T> void copy(ReadableConfig from, org.apache.flink.configuration.ConfigOption<T> option) {
        from.getOptional(option).ifPresent(v -> conf.set(option, v));
    }

    /** Node URLs such as {@code http://localhost:9200}; one string may hold several, comma-separated. */
    public OpenSearchSinkBuilder setHosts(String... urls) {
        conf.set(HOSTS, String.join(",", urls));
        return this;
    }

    public OpenSearchSinkBuilder setIndex(String index) {
        conf.set(INDEX, index);
        return this;
    }

    public OpenSearchSinkBuilder setCredentials(String username, String password) {
        conf.set(USERNAME, username);
        conf.set(PASSWORD, password);
        return this;
    }

    public OpenSearchSinkBuilder setCreateIndex(boolean createIndex) {
        conf.set(CREATE_INDEX, createIndex);
        return this;
    }

    public OpenSearchSinkBuilder setBulkMaxActions(int maxActions) {
        conf.set(BULK_MAX_ACTIONS, maxActions);
        return this;
    }

    public OpenSearchSinkBuilder setBulkMaxSizeInBytes(long bytes) {
        conf.set(BULK_MAX_SIZE, new MemorySize(bytes));
        return this;
    }

    public OpenSearchSinkBuilder setBulkFlushInterval(Duration interval) {
        conf.set(BULK_FLUSH_INTERVAL, interval);
        return this;
    }

    public OpenSearchSinkBuilder setMaxInFlightRequests(int requests) {
        conf.set(BULK_MAX_IN_FLIGHT, requests);
        return this;
    }

    public OpenSearchSinkBuilder setMaxBufferedRequests(int documents) {
        conf.set(BULK_MAX_BUFFERED, documents);
        return this;
    }

    public OpenSearchSinkBuilder setRetries(int maxRetries, Duration initialBackoff, Duration maxBackoff) {
        conf.set(MAX_RETRIES, maxRetries);
        conf.set(RETRY_INITIAL_BACKOFF, initialBackoff);
        conf.set(RETRY_MAX_BACKOFF, maxBackoff);
        return this;
    }

    public OpenSearchSinkBuilder setRequestTimeout(Duration requestTimeout) {
        conf.set(REQUEST_TIMEOUT, requestTimeout);
        return this;
    }

    public OpenSearchSink<DocumentEntities> build() {
        return OpenSearchSink.of(buildConfig());
    }

    /** Checks every setting; the exception message names the option and how to fix it. */
    public OpenSearchSinkConfig buildConfig() {
        return OpenSearchSinkConfig.from(conf, env);
    }
}
