package dev.bionerstream.sink.opensearch;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One buffered bulk operation: index a document (id and JSON source) or delete one (id, no
 * source). This is what the async sink buffers, retries and stores in checkpoints, so it stays a
 * flat value.
 *
 * @param id document id (the DocumentEntities eventId): a replay overwrites instead of duplicating
 * @param source the document as UTF-8 JSON; null for a deletion
 * @param index the index to write to; null for the sink's own (a dead letter names the dead-letter index)
 * @param version the write's external version, which orders the writes of one id in the index (an
 *     older one arriving later, as a retry does, is superseded instead of overwriting); {@link
 *     #UNVERSIONED} for a write that is not ordered (a dead letter, an entry of an earlier checkpoint)
 */
public record IndexRequestEntry(String id, byte[] source, String index, long version) implements Serializable {
    public static final long UNVERSIONED = 0;

    public IndexRequestEntry {
        Objects.requireNonNull(id, "id");
    }

    /** Indexes {@code source} under {@code id} in the sink's index; the sink gives it its version. */
    public IndexRequestEntry(String id, byte[] source) {
        this(id, source, null, UNVERSIONED);
    }

    /** This write with the version that orders it. */
    IndexRequestEntry withVersion(long version) {
        return new IndexRequestEntry(id, source, index, version);
    }

    boolean isVersioned() {
        return version != UNVERSIONED;
    }

    public boolean isDeadLetter() {
        return index != null;
    }

    public static IndexRequestEntry delete(String id) {
        return new IndexRequestEntry(id, null);
    }

    public boolean isDelete() {
        return source == null;
    }

    /** Bytes this entry adds to a bulk request (its source plus the id). */
    public long sizeInBytes() {
        return (isDelete() ? 0 : source.length) + id.length() + (index == null ? 0 : index.length());
    }

    public String sourceAsString() {
        return new String(source, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "IndexRequestEntry[id=" + id + (index == null ? "" : ", index=" + index) + ", version=" + version
                + (isDelete() ? ", delete]" : ", " + source.length + " bytes]");
    }
}
