package dev.bionerstream.sink.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.base.sink.writer.AsyncSinkWriter;
import org.apache.flink.connector.base.sink.writer.BufferedRequestState;
import org.apache.flink.connector.base.sink.writer.DequeRequestBuffer;
import org.apache.flink.connector.base.sink.writer.ElementConverter;
import org.apache.flink.connector.base.sink.writer.ResultHandler;
import org.apache.flink.connector.base.sink.writer.SimpleBatchCreator;
import org.apache.flink.connector.base.sink.writer.config.AsyncSinkWriterConfiguration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.ThreadSafeSimpleCounter;
import org.opensearch.client.opensearch.OpenSearchAsyncClient;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch._types.OpenSearchException;
import org.opensearch.client.opensearch._types.VersionType;
import org.opensearch.client.opensearch.core.BulkRequest;
import org.opensearch.client.opensearch.core.BulkResponse;
import org.opensearch.client.opensearch.core.bulk.BulkOperation;
import org.opensearch.client.transport.OpenSearchTransport;
import org.opensearch.client.transport.httpclient5.ResponseException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends buffered documents as bulk index requests. Runs on the task's mailbox thread except the
 * response callbacks, which run on the HTTP client's threads and hand their outcome back through
 * the {@link ResultHandler}. A retry waits its backoff before it is handed back, so the request
 * keeps its in-flight slot meanwhile: a struggling cluster slows the sink down rather than being
 * hit harder.
 */
final class OpenSearchSinkWriter<T> extends AsyncSinkWriter<T, IndexRequestEntry> {
    private static final Logger LOG = LoggerFactory.getLogger(OpenSearchSinkWriter.class);

    static final String METRIC_RETRIED_DOCUMENTS = "opensearchRetriedDocuments";
    static final String METRIC_FAILED_REQUESTS = "opensearchFailedBulkRequests";
    static final String METRIC_DEAD_LETTERS = "opensearchDeadLetters";

    private final OpenSearchSinkConfig config;
    private final RetryPolicy retryPolicy;
    private final OpenSearchTransport transport;
    private final OpenSearchAsyncClient client;
    /** Retries so far per document id; only documents that failed at least once are here. */
    private final Map<String, Integer> attempts = new ConcurrentHashMap<>();

    private final Counter retriedDocuments;
    private final Counter failedRequests;
    private final Counter deadLetters;

    OpenSearchSinkWriter(
            ElementConverter<T, IndexRequestEntry> converter,
            WriterInitContext context,
            OpenSearchSinkConfig config,
            Collection<BufferedRequestState<IndexRequestEntry>> state) {
        this(converter, context, writerConfiguration(config), config, state);
    }

    private OpenSearchSinkWriter(
            ElementConverter<T, IndexRequestEntry> converter,
            WriterInitContext context,
            AsyncSinkWriterConfiguration writerConfiguration,
            OpenSearchSinkConfig config,
            Collection<BufferedRequestState<IndexRequestEntry>> state) {
        super(
                new WriteVersions<>(converter),
                context,
                writerConfiguration,
                state,
                new SimpleBatchCreator<>(writerConfiguration.getMaxBatchSizeInBytes()),
                new DequeRequestBuffer<>());
        this.config = config;
        this.retryPolicy = config.retryPolicy();
        this.retriedDocuments = context.metricGroup().counter(METRIC_RETRIED_DOCUMENTS, new ThreadSafeSimpleCounter());
        this.failedRequests = context.metricGroup().counter(METRIC_FAILED_REQUESTS, new ThreadSafeSimpleCounter());
        this.deadLetters = context.metricGroup().counter(METRIC_DEAD_LETTERS, new ThreadSafeSimpleCounter());
        this.transport = OpenSearchClients.transport(config);
        this.client = new OpenSearchAsyncClient(transport);
        if (config.createIndex()) {
            try {
                IndexSetup.ensureIndex(new OpenSearchClient(transport), config.index());
            } catch (IOException | RuntimeException e) {
                closeTransport();
                int status = httpStatus(e);
                throw new IllegalStateException(
                        "OpenSearch at " + config.hosts() + " is not usable"
                                + (status > 0 ? " (HTTP " + status + ")" : "") + ": " + e.getMessage() + "; "
                                + (status > 0
                                        ? hint(status)
                                        : "check " + OpenSearchSinkOptions.HOSTS.key() + " and "
                                                + OpenSearchSinkOptions.CA.key()),
                        e);
            }
        }
    }

    private static AsyncSinkWriterConfiguration writerConfiguration(OpenSearchSinkConfig config) {
        return AsyncSinkWriterConfiguration.builder()
                .setMaxBatchSize(config.maxBatchSize())
                .setMaxBatchSizeInBytes(config.maxBatchSizeInBytes())
                .setMaxInFlightRequests(config.maxInFlightRequests())
                .setMaxBufferedRequests(config.maxBufferedRequests())
                .setMaxTimeInBufferMS(config.maxTimeInBuffer().toMillis())
                .setMaxRecordSizeInBytes(config.maxBatchSizeInBytes())
                .setRequestTimeoutMS(config.asyncRequestTimeoutMillis())
                .setFailOnTimeout(false)
                .build();
    }

    @Override
    protected void submitRequestEntries(List<IndexRequestEntry> entries, ResultHandler<IndexRequestEntry> handler) {
        List<BulkOperation> operations = new ArrayList<>(entries.size());
        for (IndexRequestEntry entry : entries) {
            operations.add(operation(entry));
        }
        BulkRequest request = BulkRequest.of(b -> b.index(config.index()).operations(operations));
        CompletableFuture<BulkResponse> response;
        try {
            response = client.bulk(request);
        } catch (IOException | RuntimeException e) {
            response = CompletableFuture.failedFuture(e);
        }
        response.whenComplete((result, error) -> {
            if (error != null) {
                onRequestFailure(entries, error, handler);
            } else {
                onResponse(entries, result, handler);
            }
        });
    }

    private void onResponse(
            List<IndexRequestEntry> entries, BulkResponse response, ResultHandler<IndexRequestEntry> handler) {
        BulkOutcome outcome = BulkOutcome.of(entries, response, config.index());
        if (outcome.fatal().isPresent()) {
            handler.completeExceptionally(
                    new OpenSearchSinkException(outcome.fatal().get()
                            + ". This does not improve with retries: check the index (and " + config.index()
                            + DeadLetterDocument.SUFFIX + "), its mapping (" + IndexSetup.MAPPING_RESOURCE
                            + ") and the permissions of the job's user."));
            return;
        }
        if (!attempts.isEmpty()) {
            Set<String> retried =
                    outcome.retry().stream().map(IndexRequestEntry::id).collect(Collectors.toSet());
            entries.stream()
                    .map(IndexRequestEntry::id)
                    .filter(id -> !retried.contains(id))
                    .forEach(attempts::remove);
        }
        if (!outcome.deadLetters().isEmpty()) {
            deadLetters.inc(outcome.deadLetters().size());
            LOG.warn(
                    "{} document(s) refused by {} for their content go to {}{}: {}",
                    outcome.deadLetters().size(),
                    config.index(),
                    config.index(),
                    DeadLetterDocument.SUFFIX,
                    outcome.deadLetters().stream().map(IndexRequestEntry::id).toList());
        }
        if (outcome.retry().isEmpty() && outcome.deadLetters().isEmpty()) {
            handler.complete();
        } else if (outcome.retry().isEmpty()) {
            handler.retryForEntries(outcome.deadLetters());
        } else {
            List<IndexRequestEntry> again = new ArrayList<>(outcome.retry());
            again.addAll(outcome.deadLetters());
            retryLater(again, "bulk items rejected with a retryable status", handler);
        }
    }

    private void onRequestFailure(
            List<IndexRequestEntry> entries, Throwable error, ResultHandler<IndexRequestEntry> handler) {
        failedRequests.inc();
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        int status = httpStatus(cause);
        if (status > 0 && !RetryPolicy.isRetryableStatus(status)) {
            handler.completeExceptionally(new OpenSearchSinkException(
                    "Bulk request to " + config.index() + " failed with HTTP " + status + ": " + cause.getMessage()
                            + "; " + hint(status),
                    cause));
            return;
        }
        if (status == 0 && !isIoFailure(cause)) {
            // Not an answer from the cluster and not the network: a bug or a broken classpath; retrying won't help.
            handler.completeExceptionally(new OpenSearchSinkException(
                    "Bulk request to " + config.index() + " could not be sent: " + cause, cause));
            return;
        }
        retryLater(entries, "bulk request failed: " + cause, handler);
    }

    /** What to check after an answer that retrying cannot change. */
    private static String hint(int status) {
        return switch (status) {
            case 401 -> "the cluster does not accept the credentials: check " + OpenSearchSinkOptions.USERNAME.key()
                    + " and "
                    + OpenSearchSinkOptions.PASSWORD.key() + " (" + OpenSearchSinkConfig.ENV_USERNAME + ", "
                    + OpenSearchSinkConfig.ENV_PASSWORD + ")";
            case 403 -> "the user lacks a permission: give it the role of k8s/opensearch/roles.yml";
            case 413 -> "lower " + OpenSearchSinkOptions.BULK_MAX_SIZE.key()
                    + " or raise http.max_content_length on the cluster";
            default -> "check " + OpenSearchSinkOptions.INDEX.key() + " and the index mapping";
        };
    }

    private static boolean isIoFailure(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof IOException || t instanceof TimeoutException) {
                return true;
            }
        }
        return false;
    }

    private void retryLater(List<IndexRequestEntry> retry, String why, ResultHandler<IndexRequestEntry> handler) {
        int attempt = 0;
        for (IndexRequestEntry entry : retry) {
            attempt = Math.max(attempt, attempts.merge(entry.id(), 1, Integer::sum));
        }
        if (retryPolicy.exhausted(attempt)) {
            handler.completeExceptionally(new OpenSearchSinkException("Gave up on " + retry.size()
                    + " document(s) after " + retryPolicy.maxRetries() + " retries (" + why
                    + "). Raise " + OpenSearchSinkOptions.MAX_RETRIES.key() + " or "
                    + OpenSearchSinkOptions.RETRY_MAX_BACKOFF.key()
                    + " if the cluster needs longer to recover."));
            return;
        }
        retriedDocuments.inc(retry.size());
        Duration wait = retryPolicy.backoff(attempt);
        LOG.warn(
                "Retrying {} document(s) in {} ms (retry {} of {}): {}",
                retry.size(),
                wait.toMillis(),
                attempt,
                retryPolicy.maxRetries(),
                why);
        CompletableFuture.delayedExecutor(wait.toMillis(), TimeUnit.MILLISECONDS)
                .execute(() -> handler.retryForEntries(retry));
    }

    private static int httpStatus(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof OpenSearchException e) {
                return e.status();
            }
            if (t instanceof ResponseException e) {
                return e.status();
            }
        }
        return 0;
    }

    private static BulkOperation operation(IndexRequestEntry entry) {
        Long version = entry.isVersioned() ? entry.version() : null;
        VersionType versionType = entry.isVersioned() ? VersionType.ExternalGte : null;
        if (entry.isDelete()) {
            return BulkOperation.of(
                    op -> op.delete(d -> d.id(entry.id()).version(version).versionType(versionType)));
        }
        JsonNode source = parse(entry);
        return BulkOperation.of(op -> op.index(ix -> ix.index(entry.index())
                .id(entry.id())
                .document(source)
                .version(version)
                .versionType(versionType)));
    }

    private static JsonNode parse(IndexRequestEntry entry) {
        try {
            return DocumentJsonConverter.JSON.readTree(entry.source());
        } catch (IOException e) {
            throw new UncheckedIOException("Buffered document " + entry.id() + " is not valid JSON", e);
        }
    }

    @Override
    protected long getSizeInBytes(IndexRequestEntry entry) {
        return entry.sizeInBytes();
    }

    @Override
    public void close() {
        super.close();
        closeTransport();
    }

    private void closeTransport() {
        try {
            transport.close();
        } catch (IOException e) {
            LOG.warn("Closing the OpenSearch client failed", e);
        }
    }
}
