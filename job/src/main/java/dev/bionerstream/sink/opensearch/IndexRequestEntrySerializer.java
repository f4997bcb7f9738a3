package dev.bionerstream.sink.opensearch;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.flink.connector.base.sink.writer.AsyncSinkWriterStateSerializer;

/**
 * Checkpoint format of the entries still buffered in the writer: id, then length-prefixed JSON;
 * length -1 is a deletion, -2 a dead letter (its index, then length-prefixed JSON).
 */
final class IndexRequestEntrySerializer extends AsyncSinkWriterStateSerializer<IndexRequestEntry> {
    @Override
    protected void serializeRequestToStream(IndexRequestEntry entry, DataOutputStream out) throws IOException {
        out.writeUTF(entry.id());
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
    protected IndexRequestEntry deserializeRequestFromStream(long requestSize, DataInputStream in) throws IOException {
        String id = in.readUTF();
        int length = in.readInt();
        if (length == -1) {
            return IndexRequestEntry.delete(id);
        }
        String index = null;
        if (length == -2) {
            index = in.readUTF();
            length = in.readInt();
        }
        byte[] source = new byte[length];
        in.readFully(source);
        return new IndexRequestEntry(id, source, index);
    }

    @Override
    public int getVersion() {
        return 1;
    }
}
