package dev.bionerstream.deploy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A Maven repository over HTTP on this host, serving the files of a directory laid out as one (a local
 * repository: what a build has resolved), as a company's mirror of Maven Central would; it records
 * every path asked for. A local repository keeps no checksum files of its own, so a missing {@code
 * .sha1} is computed from the file it is of.
 */
final class StandInRepository implements AutoCloseable {
    private final Path root;
    private final HttpServer server;
    private final List<String> requested = new CopyOnWriteArrayList<>();

    private StandInRepository(Path root) throws IOException {
        this.root = root;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::serve);
        server.setExecutor(Executors.newFixedThreadPool(8)); // Maven downloads several files at once
        server.start();
    }

    static StandInRepository serving(Path root) throws IOException {
        return new StandInRepository(root);
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/";
    }

    /** The repository paths asked for so far, in order. */
    List<String> requested() {
        return List.copyOf(requested);
    }

    private void serve(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath().substring(1);
            requested.add(path);
            byte[] body = body(path);
            boolean head = exchange.getRequestMethod().equals("HEAD");
            if (body == null) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            exchange.sendResponseHeaders(200, head ? -1 : body.length);
            if (!head) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }

    /** The bytes of {@code path}, or null when this repository has none. */
    private byte[] body(String path) throws IOException {
        Path file = root.resolve(path).normalize();
        if (!file.startsWith(root)) {
            return null;
        }
        if (Files.isRegularFile(file)) {
            return Files.readAllBytes(file);
        }
        Path of = Path.of(file.toString().replaceFirst("\\.sha1$", ""));
        if (path.endsWith(".sha1") && Files.isRegularFile(of)) {
            return sha1(Files.readAllBytes(of)).getBytes(StandardCharsets.US_ASCII);
        }
        return null;
    }

    private static String sha1(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        ((ExecutorService) server.getExecutor()).shutdownNow();
    }
}
