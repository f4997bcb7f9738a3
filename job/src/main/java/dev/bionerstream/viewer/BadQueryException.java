package dev.bionerstream.viewer;

/** A request the viewer refuses as written (HTTP 400); the message says what to change. */
final class BadQueryException extends Exception {
    private static final long serialVersionUID = 1L;

    BadQueryException(String message) {
        super(message);
    }
}
