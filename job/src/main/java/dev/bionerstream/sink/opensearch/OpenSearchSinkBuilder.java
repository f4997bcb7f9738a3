package dev.bionerstream.sink.opensearch;

import dev.bionerstream.job.JobOptions;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Builds an {@link OpenSearchSink}. Defaults are those of {@link JobOptions}; {@link #build()}
 * checks every setting and says how to fix a wrong one.
 *
 * <pre>{@code
 * OpenSearchSink sink = OpenSearchSink.builder()
 *         .setHosts("http://localhost:9200")
 *         .setIndex("bioner-documents")
 *         .build();
 * }</pre>
 */
public final class OpenSearchSinkBuilder {
    private static final Pattern FORBIDDEN_INDEX_CHARS = Pattern.compile("[\\\\/*?\"<>| ,#:]");

    private List<String> hosts = new ArrayList<>();
    private String index = JobOptions.OPENSEARCH_INDEX.defaultValue();
    private String username;
    private String password;
    private boolean createIndex = JobOptions.OPENSEARCH_CREATE_INDEX.defaultValue();
    private int maxBatchSize = JobOptions.OPENSEARCH_BULK_MAX_ACTIONS.defaultValue();
    private long maxBatchSizeInBytes = JobOptions.OPENSEARCH_BULK_MAX_SIZE.defaultValue().getBytes();
    private Duration maxTimeInBuffer = JobOptions.OPENSEARCH_BULK_FLUSH_INTERVAL.defaultValue();
    private int maxInFlightRequests = JobOptions.OPENSEARCH_BULK_MAX_IN_FLIGHT.defaultValue();
    private int maxBufferedRequests = JobOptions.OPENSEARCH_BULK_MAX_BUFFERED.defaultValue();
    private int maxRetries = JobOptions.OPENSEARCH_MAX_RETRIES.defaultValue();
    private Duration initialBackoff = JobOptions.OPENSEARCH_RETRY_INITIAL_BACKOFF.defaultValue();
    private Duration maxBackoff = JobOptions.OPENSEARCH_RETRY_MAX_BACKOFF.defaultValue();
    private Duration requestTimeout = JobOptions.OPENSEARCH_REQUEST_TIMEOUT.defaultValue();

    OpenSearchSinkBuilder() {}

    /**
     * Takes every {@code opensearch.*} option from {@code conf}; unset hosts, username and password
     * come from {@code OPENSEARCH_HOSTS}, {@code OPENSEARCH_USERNAME} and {@code OPENSEARCH_PASSWORD}
     * in {@code env}.
     */
    public OpenSearchSinkBuilder configure(ReadableConfig conf, Map<String, String> env) {
        String hostList = conf.getOptional(JobOptions.OPENSEARCH_HOSTS).orElse(env.get(OpenSearchSinkConfig.ENV_HOSTS));
        hosts = hostList == null ? new ArrayList<>() : splitHosts(hostList);
        index = conf.get(JobOptions.OPENSEARCH_INDEX);
        username = conf.getOptional(JobOptions.OPENSEARCH_USERNAME).orElse(env.get(OpenSearchSinkConfig.ENV_USERNAME));
        password = conf.getOptional(JobOptions.OPENSEARCH_PASSWORD).orElse(env.get(OpenSearchSinkConfig.ENV_PASSWORD));
        createIndex = conf.get(JobOptions.OPENSEARCH_CREATE_INDEX);
        maxBatchSize = conf.get(JobOptions.OPENSEARCH_BULK_MAX_ACTIONS);
        maxBatchSizeInBytes = conf.get(JobOptions.OPENSEARCH_BULK_MAX_SIZE).getBytes();
        maxTimeInBuffer = conf.get(JobOptions.OPENSEARCH_BULK_FLUSH_INTERVAL);
        maxInFlightRequests = conf.get(JobOptions.OPENSEARCH_BULK_MAX_IN_FLIGHT);
        maxBufferedRequests = conf.get(JobOptions.OPENSEARCH_BULK_MAX_BUFFERED);
        maxRetries = conf.get(JobOptions.OPENSEARCH_MAX_RETRIES);
        initialBackoff = conf.get(JobOptions.OPENSEARCH_RETRY_INITIAL_BACKOFF);
        maxBackoff = conf.get(JobOptions.OPENSEARCH_RETRY_MAX_BACKOFF);
        requestTimeout = conf.get(JobOptions.OPENSEARCH_REQUEST_TIMEOUT);
        return this;
    }

    public OpenSearchSinkBuilder setConfig(OpenSearchSinkConfig c) {
        hosts = new ArrayList<>(c.hosts());
        index = c.index();
        username = c.username();
        password = c.password();
        createIndex = c.createIndex();
        maxBatchSize = c.maxBatchSize();
        maxBatchSizeInBytes = c.maxBatchSizeInBytes();
        maxTimeInBuffer = c.maxTimeInBuffer();
        maxInFlightRequests = c.maxInFlightRequests();
        maxBufferedRequests = c.maxBufferedRequests();
        maxRetries = c.retryPolicy().maxRetries();
        initialBackoff = c.retryPolicy().initialBackoff();
        maxBackoff = c.retryPolicy().maxBackoff();
        requestTimeout = c.requestTimeout();
        return this;
    }

    /** Node URLs such as {@code http://localhost:9200}; one string may hold several, comma-separated. */
    public OpenSearchSinkBuilder setHosts(String... urls) {
        hosts = new ArrayList<>();
        Arrays.stream(urls).map(OpenSearchSinkBuilder::splitHosts).forEach(hosts::addAll);
        return this;
    }

    public OpenSearchSinkBuilder setIndex(String index) {
        this.index = index;
        return this;
    }

    public OpenSearchSinkBuilder setCredentials(String username, String password) {
        this.username = username;
        this.password = password;
        return this;
    }

    public OpenSearchSinkBuilder setCreateIndex(boolean createIndex) {
        this.createIndex = createIndex;
        return this;
    }

    public OpenSearchSinkBuilder setBulkMaxActions(int maxBatchSize) {
        this.maxBatchSize = maxBatchSize;
        return this;
    }

    public OpenSearchSinkBuilder setBulkMaxSizeInBytes(long maxBatchSizeInBytes) {
        this.maxBatchSizeInBytes = maxBatchSizeInBytes;
        return this;
    }

    public OpenSearchSinkBuilder setBulkFlushInterval(Duration maxTimeInBuffer) {
        this.maxTimeInBuffer = maxTimeInBuffer;
        return this;
    }

    public OpenSearchSinkBuilder setMaxInFlightRequests(int maxInFlightRequests) {
        this.maxInFlightRequests = maxInFlightRequests;
        return this;
    }

    public OpenSearchSinkBuilder setMaxBufferedRequests(int maxBufferedRequests) {
        this.maxBufferedRequests = maxBufferedRequests;
        return this;
    }

    public OpenSearchSinkBuilder setRetries(int maxRetries, Duration initialBackoff, Duration maxBackoff) {
        this.maxRetries = maxRetries;
        this.initialBackoff = initialBackoff;
        this.maxBackoff = maxBackoff;
        return this;
    }

    public OpenSearchSinkBuilder setRequestTimeout(Duration requestTimeout) {
        this.requestTimeout = requestTimeout;
        return this;
    }

    public OpenSearchSink build() {
        return new OpenSearchSink(buildConfig());
    }

    /** Checks every setting; the exception message names the option and how to fix it. */
    public OpenSearchSinkConfig buildConfig() {
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException("No OpenSearch host: set opensearch.hosts (for example "
                    + "--opensearch.hosts http://localhost:9200) or the " + OpenSearchSinkConfig.ENV_HOSTS
                    + " environment variable.");
        }
        List<String> urls = hosts.stream().map(OpenSearchSinkBuilder::checkHost).toList();
        checkIndexName(index);
        if ((username == null) != (password == null)) {
            throw new IllegalArgumentException("OpenSearch basic auth needs both a user and a password: set both "
                    + "opensearch.username and opensearch.password (or " + OpenSearchSinkConfig.ENV_USERNAME + " and "
                    + OpenSearchSinkConfig.ENV_PASSWORD + "), or neither for a cluster without security.");
        }
        requirePositive(maxBatchSize, "opensearch.bulk.max-actions", "500");
        requirePositive(maxInFlightRequests, "opensearch.bulk.max-in-flight", "2");
        if (maxBatchSizeInBytes <= 0) {
            throw new IllegalArgumentException("opensearch.bulk.max-size must be positive, for example 5mb.");
        }
        if (maxBufferedRequests <= maxBatchSize) {
            throw new IllegalArgumentException("opensearch.bulk.max-buffered (" + maxBufferedRequests
                    + ") must be larger than opensearch.bulk.max-actions (" + maxBatchSize + "): set it to at least "
                    + (2 * maxBatchSize) + " so one request can be filled while another is in flight.");
        }
        if (maxRetries < 0) {
            throw new IllegalArgumentException("opensearch.retry.max-retries must be 0 or more (0 fails the job at the "
                    + "first failed bulk item); got " + maxRetries + ".");
        }
        requirePositive(maxTimeInBuffer, "opensearch.bulk.flush-interval", "1s");
        requirePositive(initialBackoff, "opensearch.retry.initial-backoff", "100ms");
        requirePositive(requestTimeout, "opensearch.request-timeout", "60s");
        if (maxBackoff.compareTo(initialBackoff) < 0) {
            throw new IllegalArgumentException("opensearch.retry.max-backoff (" + maxBackoff
                    + ") is shorter than opensearch.retry.initial-backoff (" + initialBackoff + "): raise max-backoff.");
        }
        return new OpenSearchSinkConfig(urls, index, username, password, createIndex, maxBatchSize,
                maxBatchSizeInBytes, maxTimeInBuffer, maxInFlightRequests, maxBufferedRequests,
                new RetryPolicy(maxRetries, initialBackoff, maxBackoff), requestTimeout);
    }

    static List<String> splitHosts(String value) {
        return Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    /** Returns {@code scheme://host:port} (port 9200 when absent). */
    static String checkHost(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            uri = null;
        }
        if (uri == null || uri.getScheme() == null || uri.getHost() == null
                || !(uri.getScheme().equals("http") || uri.getScheme().equals("https"))) {
            throw new IllegalArgumentException("opensearch.hosts entry '" + url + "' is not an http(s) URL: write it "
                    + "as http://host:9200 or https://host:9200 (several separated by commas).");
        }
        if (uri.getPath() != null && !uri.getPath().isEmpty() && !uri.getPath().equals("/")) {
            throw new IllegalArgumentException("opensearch.hosts entry '" + url + "' has a path (" + uri.getPath()
                    + "); give only scheme, host and port, e.g. " + uri.getScheme() + "://" + uri.getHost() + ":9200.");
        }
        int port = uri.getPort() == -1 ? 9200 : uri.getPort();
        return uri.getScheme() + "://" + uri.getHost() + ":" + port;
    }

    /** OpenSearch's index name rules, checked here so a typo fails at job submission, not at the first bulk. */
    static void checkIndexName(String name) {
        String fix = " Choose a lower-case name of letters, digits, '-' and '_', such as 'bioner-documents', "
                + "and set it with opensearch.index.";
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("opensearch.index is empty." + fix);
        }
        if (!name.equals(name.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("Index name '" + name + "' has upper-case letters; OpenSearch index "
                    + "names are lower case." + fix);
        }
        if (FORBIDDEN_INDEX_CHARS.matcher(name).find()) {
            throw new IllegalArgumentException("Index name '" + name + "' contains one of \\ / * ? \" < > | , # : "
                    + "or a space, which OpenSearch forbids." + fix);
        }
        if (name.startsWith("-") || name.startsWith("_") || name.startsWith("+")) {
            throw new IllegalArgumentException("Index name '" + name + "' starts with '" + name.charAt(0)
                    + "'; OpenSearch index names cannot start with '-', '_' or '+'." + fix);
        }
        if (name.equals(".") || name.equals("..")) {
            throw new IllegalArgumentException("Index name '" + name + "' is reserved." + fix);
        }
        if (name.getBytes(StandardCharsets.UTF_8).length > 255) {
            throw new IllegalArgumentException("Index name '" + name.substring(0, 20) + "...' is longer than 255 "
                    + "bytes." + fix);
        }
    }

    private static void requirePositive(int value, String key, String example) {
        if (value <= 0) {
            throw new IllegalArgumentException(key + " must be positive (for example " + example + "); got " + value + ".");
        }
    }

    private static void requirePositive(Duration value, String key, String example) {
        if (value == null || value.isZero() || value.isNegative()) {
            throw new IllegalArgumentException(key + " must be a positive duration (for example " + example
                    + "); got " + value + ".");
        }
    }
}
