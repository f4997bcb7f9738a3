package dev.bionerstream.sink.opensearch;

import java.io.Serializable;
import java.time.Duration;

/**
 * Which indexing failures are retried, how often, and how long to wait: {@code initialBackoff}
 * doubled per attempt up to {@code maxBackoff}.
 *
 * @param maxRetries retries of one document before the sink fails the job
 * @param initialBackoff wait before the first retry
 * @param maxBackoff longest wait
 */
public record RetryPolicy(int maxRetries, Duration initialBackoff, Duration maxBackoff) implements Serializable {

    /**
     * Too many requests (429), request timeout (408) and server-side errors (5xx) pass; the rest of
     * 4xx (mapping errors, authentication, a missing index) fail again on every retry.
     */
    public static boolean isRetryableStatus(int status) {
        return status == 429 || status == 408 || status >= 500;
    }

    /** Wait before retry number {@code attempt} (1-based). */
    public Duration backoff(int attempt) {
        int doublings = Math.min(Math.max(attempt - 1, 0), 30);
        long millis = initialBackoff.toMillis() << doublings;
        return millis <= 0 || millis > maxBackoff.toMillis() ? maxBackoff : Duration.ofMillis(millis);
    }

    public boolean exhausted(int attempt) {
        return attempt > maxRetries;
    }
}
