package dev.bionerstream.sink.opensearch;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.flink.connector.base.sink.writer.AsyncSinkWriterStateSerializer;
import org.apache.flink.connector.base.sink.writer.BufferedRequestState;

/**
 * Checkpoint format of the entries still buffered in the writer: id, version, then length-prefixed
 * JSON; length -1 is a deletion, -2 a dead letter (its index, then length-prefixed JSON). Format 1,
 * of releases before versioned writes, had no version: its entries are restored unversioned.
 */
final class IndexRequestEntrySerializer extends AsyncSinkWriterStateSerializer<IndexRequestEntry> {
    private static final int CURRENT = 2;

    /** The format of the state being read: the base class hands each entry's bytes over without it. */
    private int formatBeingRead = CURRENT;

    @Override
    protected void serializeRequestToStream(IndexRequestEntry entry, DataOutputStream out) throws IOException {
        out.writeUTF(entry.id());
        out.writeLong(entry.version());
        if (entry.isDelete()) {
            out.writeInt(-1);
            return;
        }
        if (entry.isDeadLetter()) {
            out.writeInt(-2);
            out.writeUTF(entry.index());
        }
        out.writeInt(entry.source().length);
        out.write(entry.source());
    }

    @Override
    public BufferedRequestState<IndexRequestEntry> deserialize(int version, byte[] serialized) throws IOException {
        formatBeingRead = version;
        return super.deserialize(version, serialized);
    }

    @Override
    protected IndexRequestEntry deserializeRequestFromStream(long requestSize, DataInputStream in) throws IOException {
        String id = in.readUTF();
        long version = formatBeingRead >= 2 ? in.readLong() : IndexRequestEntry.UNVERSIONED;
        int length = in.readInt();
        if (length == -1) {
            return IndexRequestEntry.delete(id).withVersion(version);
        }
        String index = null;
        if (length == -2) {
            index = in.readUTF();
            length = in.readInt();
        }
        byte[] source = new byte[length];
        in.readFully(source);
        return new IndexRequestEntry(id, source, index, version);
    }

    @Override
    public int getVersion() {
        return CURRENT;
    }
}
