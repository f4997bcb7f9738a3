package dev.bionerstream.model;

/** A model bundle that cannot be used; the message says what is wrong and how to fix it. */
public class BundleException extends RuntimeException {
    public BundleException(String message) {
        super(message);
    }

    public BundleException(String message, Throwable cause) {
        super(message, cause);
    }
}
