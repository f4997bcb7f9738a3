package dev.bionerstream.job;

import dev.bionerstream.avro.Abstract;

/** A parsed abstract and the Kafka coordinates of its record (Flink POJO). */
public class SourcedAbstract {
    public Abstract value;
    public String topic;
    public int partition;
    public long offset;

    public SourcedAbstract() {}

    public SourcedAbstract(Abstract value, RawRecord from) {
        this.value = value;
        this.topic = from.topic;
        this.partition = from.partition;
        this.offset = from.offset;
    }
}
