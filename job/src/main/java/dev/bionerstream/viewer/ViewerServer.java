package dev.bionerstream.viewer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The search-and-view page and its JSON API on the JDK's HTTP server; the page talks only to this
 * server, which alone queries OpenSearch.
 *
 * <pre>{@code
 * try (ViewerServer viewer = ViewerServer.start(ViewerConfig.local(url, "bioner-documents", 8090), DeadLetterCounter.NONE, ConceptLookup.NONE)) {
 *     System.out.println("open " + viewer.url());
 * }
 * }</pre>
 *
 * <p>{@code GET /api/search?q=&entity=&type=&doc=&from=&size=} ({@code entity}: a mention's text, a
 * concept id, or any name of a concept of the shipped vocabularies), {@code GET /api/document?id=EVENT_ID},
 * {@code GET /api/rates}. A bad request is HTTP 400, OpenSearch down or refusing is 502, each with
 * {@code {"error": "..."}}.
 */
public final class ViewerServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ViewerServer.class);
    private static final Pattern EVENT_ID = Pattern.compile("[A-Za-z0-9:._-]{1,512}");

    private final HttpServer server;
    private final ExecutorService executor;
    private final IndexGateway index;
    private final LiveRates rates;
    private final StaticPage page = new StaticPage();
    private final ConceptNames conceptNames;

    private ViewerServer(ViewerConfig config, DeadLetterCounter deadLetters, ConceptLookup concepts)
            throws IOException {
        this.index = new IndexGateway(config);
        this.conceptNames = new ConceptNames(concepts);
        this.rates = new LiveRates(index, deadLetters, Clock.systemUTC());
        this.server = listen(config);
        this.executor = Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "viewer-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/", this::handle);
    }

    /**
     * Serves the page on {@code config}'s host and port until closed; {@code concepts} finds the
     * documents of a concept by any of its names.
     */
    public static ViewerServer start(ViewerConfig config, DeadLetterCounter deadLetters, ConceptLookup concepts)
            throws IOException {
        ViewerServer viewer = new ViewerServer(config, deadLetters, concepts);
        viewer.server.start();
        return viewer;
    }

    private static HttpServer listen(ViewerConfig config) throws IOException {
        try {
            return HttpServer.create(new InetSocketAddress(config.host(), config.port()), 0);
        } catch (BindException e) {
            throw new BindException("the page cannot listen on " + config.host() + ":" + config.port() + " ("
                    + e.getMessage() + "): choose another port, or 0 for any free one");
        }
    }

    /** The page's address; {@code localhost} stands for a server bound to every interface. */
    public String url() {
        InetSocketAddress address = server.getAddress();
        String host = address.getAddress().isAnyLocalAddress()
                ? "localhost"
                : address.getAddress().getHostAddress();
        return "http://" + host + ":" + address.getPort() + "/";
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!exchange.getRequestMethod().equals("GET")) {
                exchange.getResponseHeaders().add("Allow", "GET");
                sendJson(exchange, 405, error("only GET is served"));
                return;
            }
            String path = exchange.getRequestURI().getPath();
            try {
                if (path.startsWith("/api/")) {
                    sendJson(
                            exchange,
                            200,
                            api(path, QueryString.parse(exchange.getRequestURI().getRawQuery())));
                } else {
                    var asset = page.at(path);
                    if (asset.isEmpty()) {
                        sendJson(exchange, 404, error("no page at " + path));
                    } else {
                        send(
                                exchange,
                                200,
                                asset.get().contentType(),
                                asset.get().bytes());
                    }
                }
            } catch (BadQueryException e) {
                sendJson(exchange, 400, error(e.getMessage()));
            } catch (NotFound e) {
                sendJson(exchange, 404, error(e.getMessage()));
            } catch (IndexUnavailableException e) {
                LOG.warn("{} {}: {}", exchange.getRequestMethod(), path, e.getMessage());
                sendJson(exchange, 502, error(e.getMessage()));
            } catch (RuntimeException e) {
                LOG.error("{} {} failed", exchange.getRequestMethod(), path, e);
                sendJson(exchange, 500, error("the viewer failed: " + e));
            }
        }
    }

    private JsonNode api(String path, Map<String, String> params) throws IOException, BadQueryException, NotFound {
        switch (path) {
            case "/api/search":
                SearchQuery q = SearchQuery.from(params);
                List<String> concepts = q.entity() == null ? List.of() : conceptNames.of(q.entity(), q.type());
                return PageDocuments.results(index.search(IndexQueries.search(q, concepts)));
            case "/api/document":
                String id = params.get("id");
                if (id == null || !EVENT_ID.matcher(id).matches() || params.size() > 1) {
                    throw new BadQueryException("give one parameter id, the document's eventId");
                }
                JsonNode doc =
                        index.document(id).orElseThrow(() -> new NotFound("no document " + id + " in the index"));
                return PageDocuments.document(doc.path("_source"));
            case "/api/rates":
                return rates.now();
            default:
                throw new NotFound("no API at " + path + ": use /api/search, /api/document or /api/rates");
        }
    }

    private static ObjectNode error(String message) {
        return IndexQueries.JSON.createObjectNode().put("error", message);
    }

    private static void sendJson(HttpExchange exchange, int status, JsonNode body) throws IOException {
        send(
                exchange,
                status,
                "application/json; charset=utf-8",
                body.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        var headers = exchange.getResponseHeaders();
        headers.set("Content-Type", contentType);
        headers.set("X-Content-Type-Options", "nosniff");
        headers.set("Cache-Control", "no-store");
        // The page loads nothing from elsewhere and talks only to this server.
        headers.set("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'");
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    /** Nothing at the requested address (HTTP 404). */
    private static final class NotFound extends Exception {
        private static final long serialVersionUID = 1L;

        NotFound(String message) {
            super(message);
        }
    }
}
