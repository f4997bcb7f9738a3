package dev.bionerstream.viewer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.BindException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The viewer's answers that need no index: the page itself, bad requests (400) and an OpenSearch
 * that does not answer (502), each error as JSON that says what happened.
 */
class ViewerServerTest {
    private final HttpClient http = HttpClient.newHttpClient();
    private ViewerServer server;

    @BeforeEach
    void start() throws IOException {
        server = ViewerServer.start(
                ViewerConfig.local("http://127.0.0.1:" + closedPort(), "bioner-documents", 0),
                DeadLetterCounter.NONE,
                ConceptLookup.NONE);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void listensOnLoopbackOnlyByDefault() {
        assertThat(server.url()).startsWith("http://127.0.0.1:");
    }

    @Test
    void aPortInUseSaysSo() {
        int port = Integer.parseInt(server.url().replaceAll(".*:(\\d+)/", "$1"));
        assertThatThrownBy(() -> ViewerServer.start(
                        ViewerConfig.local("http://127.0.0.1:9200", "bioner-documents", port),
                        DeadLetterCounter.NONE,
                        ConceptLookup.NONE))
                .isInstanceOf(BindException.class)
                .hasMessageStartingWith("the page cannot listen on 127.0.0.1:" + port)
                .hasMessageEndingWith("choose another port, or 0 for any free one");
    }

    @Test
    void servesThePageWithAPolicyThatKeepsItOnThisServer() throws Exception {
        HttpResponse<String> page = get("");

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("<script src=\"viewer.js\"");
        assertThat(page.headers().firstValue("Content-Security-Policy"))
                .hasValue("default-src 'self'; frame-ancestors 'none'");
        assertThat(get("viewer.js").headers().firstValue("Content-Type")).hasValue("text/javascript; charset=utf-8");
        assertThat(get("../pom.xml").statusCode()).isEqualTo(404);
    }

    @Test
    void aBadRequestIsA400ThatSaysWhatToChange() throws Exception {
        assertError(get("api/search?size=-1"), 400, "size must be in 1..100, not -1");
        assertError(get("api/search?q=a&q=b"), 400, "parameter 'q' is given twice");
        assertError(get("api/document?id=a/b"), 400, "give one parameter id");
        assertError(get("api/nothing"), 404, "no API at /api/nothing");
        HttpResponse<String> post = http.send(
                HttpRequest.newBuilder(URI.create(server.url() + "api/search"))
                        .POST(HttpRequest.BodyPublishers.ofString("{}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertError(post, 405, "only GET is served");
    }

    @Test
    void anOpenSearchThatDoesNotAnswerIsA502NamingIt() throws Exception {
        assertError(get("api/search?entity=cisplatin"), 502, "does not answer (is it running?)");
        assertError(get("api/rates"), 502, "OpenSearch at http://127.0.0.1:");
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(server.url() + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void assertError(HttpResponse<String> response, int status, String message) throws IOException {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json; charset=utf-8");
        JsonNode body = IndexQueries.JSON.readTree(response.body());
        assertThat(body.path("error").asText()).contains(message);
    }

    /** A port nothing listens on: taken, then released. */
    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
