package dev.bionerstream.viewer;

import java.io.IOException;

/** OpenSearch could not be reached or refused the viewer's request (HTTP 502 to the page). */
public final class IndexUnavailableException extends IOException {
    private static final long serialVersionUID = 1L;

    IndexUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    IndexUnavailableException(String message) {
        super(message);
    }
}
