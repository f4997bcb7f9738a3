package dev.bionerstream.batching;

/** A request larger than the batcher accepts: no retry can change it. */
public final class TooManyWindowsException extends IllegalArgumentException {
    public TooManyWindowsException(int windows, int max) {
        super("the document needs " + windows + " (sentence, type) model passes, more than the " + max
                + " allowed per document (batch.max-windows-per-document)");
    }
}
