package dev.bionerstream.viewer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.bionerstream.tls.PemTrust;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;

/**
 * The viewer's only way to OpenSearch: JSON over the JDK's HTTP client, to one index and its
 * dead-letter index. Whatever goes wrong on the way (no node, a refusal, a timeout) is an {@link
 * IndexUnavailableException} that names the node and OpenSearch's reason.
 */
public final class IndexGateway {
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private final HttpClient http;
    private final URI base;
    private final String index;
    private final String authorization;

    public IndexGateway(ViewerConfig config) {
        String url = config.openSearch().toString();
        this.base = URI.create(url.endsWith("/") ? url : url + "/");
        this.index = config.index();
        HttpClient.Builder client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5));
        if (config.ca() != null) {
            client.sslContext(PemTrust.sslContext(config.ca(), "OPENSEARCH_CA_CERT"));
        }
        this.http = client.build();
        this.authorization = config.username() == null
                ? null
                : "Basic "
                        + Base64.getEncoder()
                                .encodeToString(
                                        (config.username() + ":" + config.password()).getBytes(StandardCharsets.UTF_8));
    }

    /** Documents in the index once every write acknowledged so far is visible to searches. */
    public long refreshedCount() throws IOException {
        send("POST", segment(index) + "/_refresh", null);
        return send("GET", segment(index) + "/_count", null).path("count").asLong();
    }

    public JsonNode search(ObjectNode body) throws IOException {
        return send("POST", segment(index) + "/_search", body);
    }

    /** A search of {@code <index>-dlq}, which OpenSearch creates on the first dead letter: none yet is no hit. */
    JsonNode searchDeadLetters(ObjectNode body) throws IOException {
        return send("POST", segment(index + "-dlq") + "/_search?ignore_unavailable=true", body);
    }

    /** The indexed document with this {@code _id} (its eventId), if there is one. */
    Optional<JsonNode> document(String id) throws IOException {
        JsonNode doc = send("GET", segment(index) + "/_doc/" + segment(id), null);
        return doc.path("found").asBoolean(false) ? Optional.of(doc) : Optional.empty();
    }

    private JsonNode send(String method, String path, ObjectNode body) throws IOException {
        URI uri = base.resolve(path);
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .timeout(TIMEOUT)
                .header("Content-Type", "application/json")
                .method(
                        method,
                        body == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofString(body.toString()));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        HttpResponse<String> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (ConnectException e) {
            throw new IndexUnavailableException("OpenSearch at " + base + " does not answer (is it running?)", e);
        } catch (HttpTimeoutException e) {
            throw new IndexUnavailableException("OpenSearch at " + base + " did not answer within " + TIMEOUT, e);
        } catch (IOException e) {
            throw new IndexUnavailableException("OpenSearch at " + base + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IndexUnavailableException("interrupted while asking OpenSearch at " + base, e);
        }
        JsonNode json = parse(response.body());
        // _doc answers 404 for a missing document with {"found": false}: an answer, not a failure.
        boolean missingDocument = response.statusCode() == 404 && json.has("found");
        if (response.statusCode() >= 300 && !missingDocument) {
            throw new IndexUnavailableException("OpenSearch at " + base + " answered HTTP " + response.statusCode()
                    + " to " + method + " /" + path + ": " + reason(json, response.body()));
        }
        return json;
    }

    private static JsonNode parse(String body) throws IndexUnavailableException {
        try {
            return body.isEmpty() ? IndexQueries.JSON.createObjectNode() : IndexQueries.JSON.readTree(body);
        } catch (IOException e) {
            throw new IndexUnavailableException("OpenSearch answered something that is not JSON: "
                    + body.substring(0, Math.min(200, body.length())));
        }
    }

    private static String reason(JsonNode json, String body) {
        JsonNode error = json.path("error");
        if (error.hasNonNull("reason")) {
            return error.path("type").asText("error") + ": "
                    + error.get("reason").asText();
        }
        return error.isTextual() ? error.asText() : body.substring(0, Math.min(200, body.length()));
    }

    private static String segment(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
