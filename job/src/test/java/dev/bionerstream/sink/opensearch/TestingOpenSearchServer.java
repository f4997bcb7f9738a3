package dev.bionerstream.sink.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stand-in for an OpenSearch node that answers {@code HEAD /<index>} (the index exists), {@code PUT
 * /<index>/_mapping} (the job adds its mapping's fields) and {@code POST /<index>/_bulk}, with a per-document status chosen by the test: it makes retries and
 * rejections happen on demand, which a healthy real node does not. Operations naming another index
 * (the dead-letter index) always succeed and are recorded apart.
 */
final class TestingOpenSearchServer implements AutoCloseable {
    /** Decides the HTTP status of one bulk item: the document id and how often it was sent (1 = first time). */
    interface ItemStatus {
        int status(String id, int attempt);
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final ItemStatus itemStatus;
    private final int failFirstBulkRequests;
    private final AtomicInteger bulkRequests = new AtomicInteger();
    private final Map<String, Integer> attempts = new ConcurrentHashMap<>();
    private final Set<String> indexed = ConcurrentHashMap.newKeySet();
    /** Documents written to another index than the request's (the dead-letter index), as "index/id". */
    private final Set<String> elsewhere = ConcurrentHashMap.newKeySet();

    /** The first {@code failFirstBulkRequests} bulk requests fail as a whole with HTTP 503. */
    TestingOpenSearchServer(ItemStatus itemStatus, int failFirstBulkRequests) throws IOException {
        this.itemStatus = itemStatus;
        this.failFirstBulkRequests = failFirstBulkRequests;
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/", this::handle);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    Set<String> indexed() {
        return indexed;
    }

    Set<String> elsewhere() {
        return elsewhere;
    }

    int attempts(String id) {
        return attempts.getOrDefault(id, 0);
    }

    int bulkRequests() {
        return bulkRequests.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            if (exchange.getRequestMethod().equals("HEAD")) {
                exchange.sendResponseHeaders(200, -1);
            } else if (exchange.getRequestMethod().equals("PUT") && path.endsWith("/_mapping")) {
                exchange.getRequestBody().readAllBytes();
                send(exchange, 200, "{\"acknowledged\":true}");
            } else if (path.endsWith("/_bulk")) {
                String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                if (bulkRequests.incrementAndGet() <= failFirstBulkRequests) {
                    send(
                            exchange,
                            503,
                            "{\"error\":{\"type\":\"cluster_block_exception\",\"reason\":\"node is starting\"},\"status\":503}");
                } else {
                    send(exchange, 200, JSON.writeValueAsString(bulk(path.split("/")[1], body)));
                }
            } else {
                send(exchange, 404, "{\"error\":{\"type\":\"not_found\",\"reason\":\"" + path + "\"},\"status\":404}");
            }
        }
    }

    private ObjectNode bulk(String index, String ndjson) throws IOException {
        ObjectNode response = JSON.createObjectNode().put("took", 1);
        ArrayNode items = response.putArray("items");
        boolean errors = false;
        String[] lines = ndjson.split("\n");
        for (int i = 0; i < lines.length; i += 2) {
            JsonNode op = JSON.readTree(lines[i]).get("index");
            String id = op.get("_id").asText();
            JsonNode source = JSON.readTree(lines[i + 1]);
            if (op.hasNonNull("_index") && !op.get("_index").asText().equals(index)) {
                String target = op.get("_index").asText();
                elsewhere.add(target + "/" + id);
                items.addObject()
                        .putObject("index")
                        .put("_index", target)
                        .put("_id", id)
                        .put("status", 201);
                continue;
            }
            int attempt = attempts.merge(id, 1, Integer::sum);
            int status = itemStatus.status(id, attempt);
            ObjectNode item = items.addObject()
                    .putObject("index")
                    .put("_index", index)
                    .put("_id", id)
                    .put("status", status);
            if (status < 300 && source.get("eventId").asText().equals(id)) {
                item.put("result", indexed.add(id) ? "created" : "updated");
            } else {
                errors = true;
                item.putObject("error")
                        .put("type", status == 429 ? "es_rejected_execution_exception" : "mapper_parsing_exception")
                        .put("reason", "rejected by the test server");
            }
        }
        return response.put("errors", errors);
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}
