package dev.bionerstream.job;

import dev.bionerstream.sink.opensearch.DocumentJsonConverter;
import dev.bionerstream.sink.opensearch.IndexRequestEntry;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.connector.base.sink.writer.ElementConverter;

/** A document update as a bulk operation: index the document, or delete it by its event id. */
final class IndexUpdates implements ElementConverter<DocumentUpdate, IndexRequestEntry> {
    private static final long serialVersionUID = 1L;

    @Override
    public IndexRequestEntry apply(DocumentUpdate update, SinkWriter.Context context) {
        return update.isDeletion()
                ? IndexRequestEntry.delete(update.eventId)
                : new IndexRequestEntry(update.eventId, DocumentJsonConverter.toJsonBytes(update.document));
    }
}
