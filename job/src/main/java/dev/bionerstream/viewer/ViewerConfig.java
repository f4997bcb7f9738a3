package dev.bionerstream.viewer;

import java.net.URI;

/**
 * Where the viewer listens and which index it shows. The page is served on {@code host:port}
 * (127.0.0.1 unless chosen otherwise: the index is not exposed beyond this machine by default);
 * the viewer alone talks to OpenSearch, with basic auth when a user is given.
 *
 * @param port 0 picks a free port
 * @param ca the CA certificates (PEM, inline or a file path) an https node's certificate is checked against, or
 *     null for the JVM's
 */
public record ViewerConfig(
        String host, int port, URI openSearch, String index, String username, String password, String ca) {
    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 8090;

    public ViewerConfig {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException(
                    "the viewer's host is empty: use 127.0.0.1 (this machine only) or 0.0.0.0");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("the viewer's port " + port + " is not in 0..65535 (0: any free port)");
        }
        if (openSearch == null
                || !("http".equals(openSearch.getScheme()) || "https".equals(openSearch.getScheme()))
                || openSearch.getHost() == null) {
            throw new IllegalArgumentException(
                    "the OpenSearch address " + openSearch + " is not an http[s]://host:port URL");
        }
        if (index == null || index.isBlank() || !index.equals(index.toLowerCase(java.util.Locale.ROOT))) {
            throw new IllegalArgumentException("the index name '" + index + "' must be a non-empty lower-case name");
        }
        if ((username == null) != (password == null)) {
            throw new IllegalArgumentException("give both the OpenSearch username and password, or neither");
        }
    }

    /** On 127.0.0.1 (this machine only), without credentials. */
    public static ViewerConfig local(String openSearchUrl, String index, int port) {
        return new ViewerConfig(DEFAULT_HOST, port, URI.create(openSearchUrl), index, null, null, null);
    }
}
