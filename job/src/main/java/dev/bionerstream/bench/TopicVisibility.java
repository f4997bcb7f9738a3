package dev.bionerstream.bench;

import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.demo.TopicReader;
import dev.bionerstream.kafka.OutputFormat;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Documents as a consumer of the per-document topic sees them: read_committed, or not waiting for transactions. */
final class TopicVisibility extends VisibilityWatch {
    private final TopicReader<DocumentEntities> reader;
    private final Map<String, DocumentEntities> records = new ConcurrentHashMap<>();
    private int read;

    TopicVisibility(String bootstrapServers, String topic, OutputFormat format, boolean committedOnly) {
        super(committedOnly ? "read_committed consumer" : "any consumer (read_uncommitted)");
        this.reader = new TopicReader<>(bootstrapServers, topic, DocumentEntities.class, format, committedOnly);
    }

    @Override
    protected Collection<String> visibleNow(Set<String> pending) {
        List<DocumentEntities> all = reader.poll(Duration.ofMillis(50));
        List<DocumentEntities> fresh = all.subList(read, all.size());
        read = all.size();
        fresh.forEach(d -> records.putIfAbsent(d.getDocumentId(), d));
        return fresh.stream().map(DocumentEntities::getDocumentId).toList();
    }

    /** The first record seen of each document (its processing time, sentences and text). */
    Map<String, DocumentEntities> records() {
        return records;
    }

    @Override
    public void close() throws Exception {
        super.close();
        reader.close();
    }
}
