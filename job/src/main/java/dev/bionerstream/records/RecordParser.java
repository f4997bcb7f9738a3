package dev.bionerstream.records;

import dev.bionerstream.avro.Abstract;
import java.io.Serializable;

/**
 * An input record's value -> abstract: the job's is {@link InputRecordDecoder}. Serializable, as the
 * operator holding it is shipped to the task managers.
 */
@FunctionalInterface
public interface RecordParser extends Serializable {
    Abstract parse(byte[] value) throws InvalidRecordException;
}
