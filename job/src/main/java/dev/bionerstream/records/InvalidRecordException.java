package dev.bionerstream.records;

/** An input record that is not a usable abstract; the message says why. */
public class InvalidRecordException extends Exception {
    public InvalidRecordException(String message) {
        super(message);
    }

    public InvalidRecordException(String message, Throwable cause) {
        super(message, cause);
    }
}
