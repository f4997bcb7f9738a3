package dev.bionerstream.sink.opensearch;

import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.connector.base.sink.writer.ElementConverter;

/**
 * Gives each write the external version that orders it in the index: microseconds of the wall clock,
 * and always above the writer's previous one. The writes of one document reach one sink subtask in
 * stream order, so a later update has the higher version; a retried older write (an item refused
 * with 429, a request repeated after a timeout) that arrives after it is then superseded (version
 * conflict) instead of putting the older content back. After a restart the clock has moved on, so
 * the versions keep rising; entries restored from a checkpoint keep theirs.
 */
final class WriteVersions<T> implements ElementConverter<T, IndexRequestEntry> {
    private static final long serialVersionUID = 1L;

    private final ElementConverter<T, IndexRequestEntry> converter;
    private long last;

    WriteVersions(ElementConverter<T, IndexRequestEntry> converter) {
        this.converter = converter;
    }

    @Override
    public IndexRequestEntry apply(T element, SinkWriter.Context context) {
        last = Math.max(last + 1, System.currentTimeMillis() * 1000);
        return converter.apply(element, context).withVersion(last);
    }
}
