package dev.bionerstream.pubmed;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fetcher against a real HTTP server on 127.0.0.1 serving a listing, update files and their .md5. */
class UpdateFileFetcherTest {
    static final List<String> NAMES = List.of("pubmed26n0001.xml.gz", "pubmed26n0002.xml.gz");

    @TempDir
    Path dir;

    HttpServer server;
    final Map<String, byte[]> files = new TreeMap<>();
    final Map<String, String> md5Files = new ConcurrentHashMap<>();
    /** "METHOD path [Range]" per request, and the User-Agents seen. */
    final List<String> requests = new CopyOnWriteArrayList<>();

    final List<String> userAgents = new CopyOnWriteArrayList<>();

    @BeforeEach
    void serve() throws Exception {
        for (String name : NAMES) {
            byte[] gz = gzip(resource(name.replace(".gz", "")));
            files.put(name, gz);
            md5Files.put(name, "MD5(" + name + ")= " + md5(gz) + "\n");
        }
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/pubmed/updatefiles/", this::handle);
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private void handle(HttpExchange x) throws IOException {
        String name = x.getRequestURI().getPath().replace("/pubmed/updatefiles/", "");
        String range = x.getRequestHeaders().getFirst("Range");
        requests.add(x.getRequestMethod() + " " + name + (range == null ? "" : " " + range));
        userAgents.add(x.getRequestHeaders().getFirst("User-Agent"));
        byte[] body;
        int status = 200;
        if (name.isEmpty()) {
            StringBuilder html = new StringBuilder("<html><body><pre>\n<a href=\"../\">Parent Directory</a>\n");
            files.keySet().forEach(f -> html.append("<a href=\"")
                    .append(f)
                    .append("\">")
                    .append(f)
                    .append("</a>\n")
                    .append("<a href=\"")
                    .append(f)
                    .append(".md5\">")
                    .append(f)
                    .append(".md5</a>\n"));
            body = html.append("<a href=\"README.txt\">README.txt</a>\n</pre></body></html>")
                    .toString()
                    .getBytes(StandardCharsets.UTF_8);
        } else if (name.endsWith(".md5") && md5Files.containsKey(name.replace(".md5", ""))) {
            body = md5Files.get(name.replace(".md5", "")).getBytes(StandardCharsets.UTF_8);
        } else if (files.containsKey(name)) {
            body = files.get(name);
            if (range != null) {
                int from = Integer.parseInt(range.replaceAll("bytes=(\\d+)-", "$1"));
                if (from >= body.length) { // as real servers do: nothing left to send
                    body = new byte[0];
                    status = 416;
                } else {
                    body = Arrays.copyOfRange(body, from, body.length);
                    status = 206;
                }
            }
        } else {
            body = new byte[0];
            status = 404;
        }
        x.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream out = x.getResponseBody()) {
            out.write(body);
        }
    }

    UpdateFileFetcher fetcher() {
        URI listing = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/pubmed/updatefiles/");
        return new UpdateFileFetcher(listing, dir, Duration.ZERO, "curator@example.org", "test");
    }

    @Test
    void fetchesNewFilesVerifiedThenNothingOnTheNextRun() throws Exception {
        UpdateFileFetcher.Summary first = fetcher().run(-1);
        assertThat(first.downloaded()).containsExactlyElementsOf(NAMES);
        assertThat(first.failed()).isEmpty();
        for (String name : NAMES) {
            assertThat(Files.readAllBytes(dir.resolve(name))).isEqualTo(files.get(name));
        }
        try (var listed = Files.list(dir)) {
            assertThat(listed.map(p -> p.getFileName().toString())).containsExactlyInAnyOrderElementsOf(NAMES);
        }
        assertThat(userAgents)
                .allSatisfy(
                        ua -> assertThat(ua).startsWith("bioner-stream/test").contains("mailto:curator@example.org"));

        requests.clear();
        UpdateFileFetcher.Summary second = fetcher().run(-1);
        assertThat(second.downloaded()).isEmpty();
        assertThat(second.alreadyPresent()).isEqualTo(2);
        assertThat(requests).as("only the listing is asked for").containsExactly("GET ");
    }

    @Test
    void aFileWhoseMd5DoesNotMatchIsNotKeptAndTheOthersAre() throws Exception {
        md5Files.put(NAMES.get(0), "MD5(" + NAMES.get(0) + ")= " + "0".repeat(32) + "\n");
        UpdateFileFetcher.Summary s = fetcher().run(-1);
        assertThat(s.failed()).singleElement().asString().startsWith(NAMES.get(0) + ": MD5 mismatch");
        assertThat(s.downloaded()).containsExactly(NAMES.get(1));
        assertThat(dir.resolve(NAMES.get(0))).doesNotExist();
        assertThat(dir.resolve("." + NAMES.get(0) + ".part")).doesNotExist();
    }

    @Test
    void anInterruptedDownloadIsResumedWithARangeRequest() throws Exception {
        byte[] whole = files.get(NAMES.get(0));
        Files.write(dir.resolve("." + NAMES.get(0) + ".part"), Arrays.copyOf(whole, 100));
        UpdateFileFetcher.Summary s = fetcher().run(1);
        assertThat(s.downloaded()).containsExactly(NAMES.get(0));
        assertThat(requests).contains("GET " + NAMES.get(0) + " bytes=100-");
        assertThat(Files.readAllBytes(dir.resolve(NAMES.get(0)))).isEqualTo(whole);
        assertThat(dir.resolve(NAMES.get(1))).as("--max-files 1").doesNotExist();
    }

    @Test
    void aCompleteDownloadWhoseRenameWasCutOffIsKeptWithoutFetchingItAgain() throws Exception {
        byte[] whole = files.get(NAMES.get(0));
        Files.write(dir.resolve("." + NAMES.get(0) + ".part"), whole);
        UpdateFileFetcher.Summary s = fetcher().run(1);
        assertThat(s.downloaded()).containsExactly(NAMES.get(0));
        assertThat(requests).containsExactly("GET ", "GET " + NAMES.get(0) + ".md5");
        assertThat(Files.readAllBytes(dir.resolve(NAMES.get(0)))).isEqualTo(whole);
        assertThat(dir.resolve("." + NAMES.get(0) + ".part")).doesNotExist();
    }

    @Test
    void aPartLongerThanTheFileIsFetchedAgainFromTheStart() throws Exception {
        byte[] whole = files.get(NAMES.get(0));
        byte[] tooLong = Arrays.copyOf(whole, whole.length + 10); // e.g. the file was replaced by a shorter one
        Files.write(dir.resolve("." + NAMES.get(0) + ".part"), tooLong);
        UpdateFileFetcher.Summary s = fetcher().run(1);
        assertThat(s.failed()).isEmpty();
        assertThat(s.downloaded()).containsExactly(NAMES.get(0));
        assertThat(requests)
                .containsSubsequence("GET " + NAMES.get(0) + " bytes=" + tooLong.length + "-", "GET " + NAMES.get(0));
        assertThat(Files.readAllBytes(dir.resolve(NAMES.get(0)))).isEqualTo(whole);
    }

    @Test
    void aContactIsRequired() {
        URI any = URI.create("http://127.0.0.1:1/");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> new UpdateFileFetcher(any, dir, Duration.ZERO, "", "test"))
                .hasMessageContaining("contact e-mail address is required");
    }

    @Test
    void md5FilesOfBothCommonShapesAreRead() throws Exception {
        String hex = "0123456789abcdef0123456789ABCDEF";
        assertThat(UpdateFileFetcher.expectedMd5("MD5(pubmed26n0001.xml.gz)= " + hex))
                .isEqualTo(hex.toLowerCase());
        assertThat(UpdateFileFetcher.expectedMd5(hex + "  pubmed26n0001.xml.gz\n"))
                .isEqualTo(hex.toLowerCase());
        assertThat(FeedListing.files("<a href=\"pubmed26n0002.xml.gz\">x</a><a href=\"pubmed26n0001.xml.gz.md5\">"
                        + "<a href=\"/pubmed/updatefiles/pubmed26n0001.xml.gz\">"))
                .containsExactly("pubmed26n0001.xml.gz", "pubmed26n0002.xml.gz");
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = UpdateFileFetcherTest.class.getResourceAsStream("/pubmed/" + name)) {
            return in.readAllBytes();
        }
    }

    private static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(data);
        }
        return out.toByteArray();
    }

    private static String md5(byte[] data) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(data));
    }
}
