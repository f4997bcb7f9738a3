package dev.bionerstream.viewer;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;

/** The page's files, read once from {@code viewer/} on the classpath: only these are served. */
final class StaticPage {
    record Asset(String contentType, byte[] bytes) {}

    private static final Map<String, String> FILES = Map.of(
            "/", "index.html",
            "/index.html", "index.html",
            "/viewer.css", "viewer.css",
            "/viewer.js", "viewer.js");

    private final Map<String, Asset> assets;

    StaticPage() {
        this.assets = Map.of(
                "index.html", load("index.html", "text/html; charset=utf-8"),
                "viewer.css", load("viewer.css", "text/css; charset=utf-8"),
                "viewer.js", load("viewer.js", "text/javascript; charset=utf-8"));
    }

    Optional<Asset> at(String path) {
        return Optional.ofNullable(FILES.get(path)).map(assets::get);
    }

    private static Asset load(String name, String contentType) {
        try (InputStream in = StaticPage.class.getClassLoader().getResourceAsStream("viewer/" + name)) {
            if (in == null) {
                throw new IllegalStateException("viewer/" + name + " is missing from the classpath");
            }
            return new Asset(contentType, in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
