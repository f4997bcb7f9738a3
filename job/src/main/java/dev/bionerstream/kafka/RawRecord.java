package dev.bionerstream.kafka;

/** A Kafka record's key and value and where it came from (Flink POJO). */
public class RawRecord {
    public byte[] key;
    public byte[] value;
    public String topic;
    public int partition;
    public long offset;

    public RawRecord() {}

    public RawRecord(byte[] key, byte[] value, String topic, int partition, long offset) {
        this.key = key;
        this.value = value;
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
    }
}
