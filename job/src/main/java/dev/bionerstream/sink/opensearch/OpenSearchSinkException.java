package dev.bionerstream.sink.opensearch;

/** A failure of the OpenSearch sink that retries cannot fix; it fails the job (which may restart). */
public class OpenSearchSinkException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public OpenSearchSinkException(String message) {
        super(message);
    }

    public OpenSearchSinkException(String message, Throwable cause) {
        super(message, cause);
    }
}
