package dev.bionerstream.sink.opensearch;

import static dev.bionerstream.sink.opensearch.OpenSearchSinkOptions.*;

import dev.bionerstream.options.OptionChecks;
import dev.bionerstream.options.OptionText;
import java.io.Serializable;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import javax.annotation.Nullable;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Settings of the OpenSearch sink, read from the {@link OpenSearchSinkOptions} and validated once
 * by {@link #from(ReadableConfig, Map)}: the exception message names the option and how to fix it.
 *
 * <pre>{@code
 * if (OpenSearchSinkConfig.isEnabled(conf)) {
 *     documents.sinkTo(OpenSearchSink.of(OpenSearchSinkConfig.from(conf), new DocumentJsonConverter()));
 * }
 * }</pre>
 *
 * @param hosts node URLs, {@code http[s]://host:port}
 * @param index index name
 * @param username basic-auth user, or null
 * @param password basic-auth password, or null (never printed by {@link #toString()})
 * @param ca the CA certificates (PEM, inline or a file path) an https cluster's certificate is checked against,
 *     or null for the JVM's
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
        @Nullable String ca,
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

    private static final Pattern FORBIDDEN_INDEX_CHARS = Pattern.compile("[\\\\/*?\"<>| ,#:]");

    public static final String ENV_USERNAME = "OPENSEARCH_USERNAME";
    public static final String ENV_PASSWORD = "OPENSEARCH_PASSWORD";
    public static final String ENV_CA = "OPENSEARCH_CA_CERT";

    public OpenSearchSinkConfig {
        hosts = List.copyOf(hosts);
    }

    /** Reads and validates the {@code opensearch.*} options, falling back to the environment. */
    public static OpenSearchSinkConfig from(ReadableConfig conf) {
        return from(conf, System.getenv());
    }

    public static OpenSearchSinkConfig from(ReadableConfig conf, Map<String, String> env) {
        String hostList = conf.getOptional(HOSTS).orElse(env.get(ENV_HOSTS));
        List<String> hosts = hostList == null ? List.of() : splitHosts(hostList);
        OptionChecks.requireGiven(
                HOSTS,
                String.join(",", hosts),
                "http://localhost:9200 (or the " + ENV_HOSTS + " environment variable)");
        String index = conf.get(INDEX);
        String username = conf.getOptional(USERNAME).orElse(env.get(ENV_USERNAME));
        String password = conf.getOptional(PASSWORD).orElse(env.get(ENV_PASSWORD));
        String ca = conf.getOptional(CA).orElse(env.get(ENV_CA));
        int maxBatchSize = conf.get(BULK_MAX_ACTIONS);
        long maxBatchSizeInBytes = conf.get(BULK_MAX_SIZE).getBytes();
        Duration maxTimeInBuffer = conf.get(BULK_FLUSH_INTERVAL);
        int maxInFlightRequests = conf.get(BULK_MAX_IN_FLIGHT);
        int maxBufferedRequests = conf.get(BULK_MAX_BUFFERED);
        int maxRetries = conf.get(MAX_RETRIES);
        Duration initialBackoff = conf.get(RETRY_INITIAL_BACKOFF);
        Duration maxBackoff = conf.get(RETRY_MAX_BACKOFF);
        Duration requestTimeout = conf.get(REQUEST_TIMEOUT);
        List<String> urls = hosts.stream().map(OpenSearchSinkConfig::checkHost).toList();
        checkIndexName(index);
        if ((username == null) != (password == null)) {
            throw OptionChecks.refused(
                    username == null ? USERNAME : PASSWORD,
                    "is not set, but --" + (username == null ? PASSWORD : USERNAME).key() + " is: basic auth "
                            + "needs both a user and a password; set both --" + USERNAME.key() + " and --"
                            + PASSWORD.key() + " (or " + ENV_USERNAME + " and " + ENV_PASSWORD
                            + "), or neither for a cluster without security.");
        }
        OptionChecks.requirePositive(BULK_MAX_ACTIONS, maxBatchSize);
        OptionChecks.requirePositive(BULK_MAX_IN_FLIGHT, maxInFlightRequests);
        OptionChecks.requirePositive(BULK_MAX_SIZE, conf.get(BULK_MAX_SIZE));
        if (maxBufferedRequests <= maxBatchSize) {
            throw OptionChecks.refused(
                    BULK_MAX_BUFFERED,
                    "(" + maxBufferedRequests + ") must be larger than --" + BULK_MAX_ACTIONS.key() + " ("
                            + maxBatchSize + "): set it to at least " + (2 * maxBatchSize)
                            + " so one request can be filled while another is in flight.");
        }
        OptionChecks.requireNotNegative(MAX_RETRIES, maxRetries, "fails the job at the first failed bulk item");
        OptionChecks.requirePositive(BULK_FLUSH_INTERVAL, maxTimeInBuffer);
        OptionChecks.requirePositive(RETRY_INITIAL_BACKOFF, initialBackoff);
        OptionChecks.requirePositive(REQUEST_TIMEOUT, requestTimeout);
        if (maxBackoff.compareTo(initialBackoff) < 0) {
            throw OptionChecks.refused(
                    RETRY_MAX_BACKOFF,
                    "(" + OptionText.shown(maxBackoff) + ") is shorter than --" + RETRY_INITIAL_BACKOFF.key() + " ("
                            + OptionText.shown(initialBackoff) + "): raise max-backoff or lower initial-backoff.");
        }
        return new OpenSearchSinkConfig(
                urls,
                index,
                username,
                password,
                ca,
                conf.get(CREATE_INDEX),
                maxBatchSize,
                maxBatchSizeInBytes,
                maxTimeInBuffer,
                maxInFlightRequests,
                maxBufferedRequests,
                new RetryPolicy(maxRetries, initialBackoff, maxBackoff),
                requestTimeout);
    }

    static List<String> splitHosts(String value) {
        return Arrays.stream(value.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
    }

    /** Returns {@code scheme://host:port} (port 9200 when absent). */
    static String checkHost(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            uri = null;
        }
        if (uri == null
                || uri.getScheme() == null
                || uri.getHost() == null
                || !(uri.getScheme().equals("http") || uri.getScheme().equals("https"))) {
            throw OptionChecks.refused(
                    HOSTS,
                    "entry '" + url + "' is not an http(s) URL: write it "
                            + "as http://host:9200 or https://host:9200 (several separated by commas).");
        }
        if (uri.getPath() != null && !uri.getPath().isEmpty() && !uri.getPath().equals("/")) {
            throw OptionChecks.refused(
                    HOSTS,
                    "entry '" + url + "' has a path (" + uri.getPath() + "); give only scheme, host and port, e.g. "
                            + uri.getScheme() + "://" + uri.getHost() + ":9200.");
        }
        int port = uri.getPort() == -1 ? 9200 : uri.getPort();
        return uri.getScheme() + "://" + uri.getHost() + ":" + port;
    }

    /** OpenSearch's index name rules, checked here so a typo fails at job submission, not at the first bulk. */
    static void checkIndexName(String name) {
        String fix = " Choose a lower-case name of letters, digits, '-' and '_', such as 'bioner-documents'.";
        if (name == null || name.isBlank()) {
            throw OptionChecks.refused(INDEX, "is empty." + fix);
        }
        String refused = null;
        if (!name.equals(name.toLowerCase(Locale.ROOT))) {
            refused = "has upper-case letters; OpenSearch index names are lower case.";
        } else if (FORBIDDEN_INDEX_CHARS.matcher(name).find()) {
            refused = "contains one of \\ / * ? \" < > | , # : or a space, which OpenSearch forbids.";
        } else if (name.startsWith("-") || name.startsWith("_") || name.startsWith("+")) {
            refused = "starts with '" + name.charAt(0) + "'; OpenSearch index names cannot start with '-', '_' or '+'.";
        } else if (name.equals(".") || name.equals("..")) {
            refused = "is reserved.";
        } else if (name.getBytes(StandardCharsets.UTF_8).length > 255) {
            refused = "is longer than 255 bytes.";
        }
        if (refused != null) {
            String shown = name.length() > 40 ? name.substring(0, 20) + "..." : name;
            throw OptionChecks.refused(INDEX, "'" + shown + "' " + refused + fix);
        }
    }

    /** True when hosts are given by {@code opensearch.hosts} or {@code OPENSEARCH_HOSTS}: the index sink is on. */
    public static boolean isEnabled(ReadableConfig conf) {
        return isEnabled(conf, System.getenv());
    }

    public static boolean isEnabled(ReadableConfig conf, Map<String, String> env) {
        String hosts = conf.getOptional(HOSTS).orElse(env.get(ENV_HOSTS));
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
                + ", password=" + (password == null ? "none" : "***") + ", ca=" + (ca == null ? "JVM" : "given")
                + ", createIndex="
                + createIndex
                + ", maxBatchSize=" + maxBatchSize + ", maxBatchSizeInBytes=" + maxBatchSizeInBytes
                + ", maxTimeInBuffer=" + maxTimeInBuffer + ", maxInFlightRequests=" + maxInFlightRequests
                + ", maxBufferedRequests=" + maxBufferedRequests + ", retryPolicy=" + retryPolicy
                + ", requestTimeout=" + requestTimeout + "]";
    }
}
