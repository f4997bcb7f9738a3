package dev.bionerstream.job;

import dev.bionerstream.avro.Abstract;
import dev.bionerstream.kafka.RawRecord;

/**
 * A parsed abstract, or the deletion of a document (a tombstone: {@code value} null, {@code
 * deletedId} set), and the Kafka coordinates of its record (Flink POJO).
 */
public class SourcedAbstract {
    public Abstract value;
    public String deletedId;
    public String topic;
    public int partition;
    public long offset;

    public SourcedAbstract() {}

    public SourcedAbstract(Abstract value, RawRecord from) {
        this(from);
        this.value = value;
    }

    private SourcedAbstract(RawRecord from) {
        this.topic = from.topic;
        this.partition = from.partition;
        this.offset = from.offset;
    }

    public static SourcedAbstract deletion(String documentId, RawRecord from) {
        SourcedAbstract s = new SourcedAbstract(from);
        s.deletedId = documentId;
        return s;
    }

    public boolean isDeletion() {
        return deletedId != null;
    }
}
