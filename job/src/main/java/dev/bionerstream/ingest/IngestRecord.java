package dev.bionerstream.ingest;

/** One record the ingest job writes: a citation, a deletion (tombstone) or a dead letter (Flink POJO). */
public class IngestRecord {
    public enum Kind {
        /** JSON Abstract on the abstracts topic, keyed by document id. */
        CITATION,
        /** Tombstone (key, no value) on the abstracts topic: the document is withdrawn. */
        DELETION,
        /** DeadLetter on the dead-letter topic (kafka.output-format), keyed by file and position. */
        DEAD_LETTER
    }

    public Kind kind;
    public String key;
    public byte[] value;

    public IngestRecord() {}

    IngestRecord(Kind kind, String key, byte[] value) {
        this.kind = kind;
        this.key = key;
        this.value = value;
    }
}
