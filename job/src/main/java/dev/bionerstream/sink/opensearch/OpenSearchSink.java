package dev.bionerstream.sink.opensearch;

import dev.bionerstream.avro.DocumentEntities;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.base.sink.AsyncSinkBase;
import org.apache.flink.connector.base.sink.writer.BufferedRequestState;
import org.apache.flink.connector.base.sink.writer.ElementConverter;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Writes records to an OpenSearch index with bulk requests; an {@link ElementConverter} turns each
 * into an index or delete operation ({@link DocumentJsonConverter} for {@link DocumentEntities}).
 *
 * <p>Built on Flink's async sink: documents are buffered and sent in bulk requests of at most
 * {@code opensearch.bulk.max-actions} documents, {@code opensearch.bulk.max-in-flight} requests at
 * a time per subtask; when those are busy and {@code opensearch.bulk.max-buffered} documents wait,
 * the sink backpressures. A checkpoint waits until every request in flight has been answered and
 * stores the documents still buffered, so delivery is at-least-once. Each document's id is the
 * record's {@code eventId} (deterministic), so a restart or a replay of the input overwrites the
 * same documents instead of adding copies. Items rejected with a retryable status (429, 5xx) or
 * whole requests that fail on the network are retried with exponential backoff; a document
 * refused for its content (400) goes to the dead-letter index {@code <index>-dlq}; other rejections
 * and exhausted retries fail the job, which then restarts from its last checkpoint.
 *
 * <p>The index is created with the mapping in {@code opensearch/documents-mapping.json} when it is
 * missing (unless {@code opensearch.create-index} is false).
 *
 * <p>One way in: the settings read and checked from the {@link OpenSearchSinkOptions} by
 * {@link OpenSearchSinkConfig#from}, and the converter of the stream's records.
 *
 * <pre>{@code
 * DataStream<DocumentEntities> documents = ...;
 * if (OpenSearchSinkConfig.isEnabled(conf)) {
 *     documents.sinkTo(OpenSearchSink.of(OpenSearchSinkConfig.from(conf), new DocumentJsonConverter()))
 *             .name("opensearch");
 * }
 * }</pre>
 */
public final class OpenSearchSink<T> extends AsyncSinkBase<T, IndexRequestEntry> {
    private static final long serialVersionUID = 1L;

    private final OpenSearchSinkConfig config;

    OpenSearchSink(OpenSearchSinkConfig config, ElementConverter<T, IndexRequestEntry> converter) {
        super(
                converter,
                config.maxBatchSize(),
                config.maxInFlightRequests(),
                config.maxBufferedRequests(),
                config.maxBatchSizeInBytes(),
                config.maxTimeInBuffer().toMillis(),
                config.maxBatchSizeInBytes(),
                config.asyncRequestTimeoutMillis(),
                false);
        this.config = config;
    }

    /**
     * A sink with settings already read and checked by {@link OpenSearchSinkConfig#from}, of records that
     * {@code converter} maps to index or delete operations ({@link DocumentJsonConverter} for {@link
     * DocumentEntities}).
     */
    public static <T> OpenSearchSink<T> of(
            OpenSearchSinkConfig config, ElementConverter<T, IndexRequestEntry> converter) {
        return new OpenSearchSink<>(config, converter);
    }

    public OpenSearchSinkConfig config() {
        return config;
    }

    @Override
    public StatefulSinkWriter<T, BufferedRequestState<IndexRequestEntry>> createWriter(WriterInitContext context) {
        return restoreWriter(context, List.of());
    }

    @Override
    public StatefulSinkWriter<T, BufferedRequestState<IndexRequestEntry>> restoreWriter(
            WriterInitContext context, Collection<BufferedRequestState<IndexRequestEntry>> recoveredState) {
        return new OpenSearchSinkWriter<>(getElementConverter(), context, config, recoveredState);
    }

    @Override
    public SimpleVersionedSerializer<BufferedRequestState<IndexRequestEntry>> getWriterStateSerializer() {
        return new IndexRequestEntrySerializer();
    }
}
