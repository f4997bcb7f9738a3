package dev.bionerstream.pubmed;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Keeps a directory current with a PubMed update-file listing: fetches the files listed there and
 * not yet in the directory, in name order, each verified against its {@code .md5} before it
 * appears under its own name. Polite as NCBI asks: one request at a time, a pause between requests,
 * a User-Agent naming the tool and a contact. A download goes to {@code .NAME.part} (hidden: the
 * ingest job never reads it) and is resumed with a Range request after an interruption.
 */
public final class UpdateFileFetcher {
    private static final Pattern MD5 = Pattern.compile("\\b([0-9a-fA-F]{32})\\b");

    /** What one run did. */
    public record Summary(List<String> downloaded, int alreadyPresent, List<String> failed) {}

    private final URI listing;
    private final Path dir;
    private final Duration delay;
    private final String userAgent;
    private final HttpClient http;

    /**
     * @param listing the URL of the listing (a directory URL ending in {@code /})
     * @param contact an e-mail address NCBI can reach if the tool misbehaves
     */
    public UpdateFileFetcher(URI listing, Path dir, Duration delay, String contact, String version) {
        if (contact == null || !contact.contains("@")) {
            throw new IllegalArgumentException("a contact e-mail address is required (NCBI asks every tool for one)");
        }
        this.listing = listing;
        this.dir = dir;
        this.delay = delay;
        this.userAgent = "bioner-stream/" + version + " (mailto:" + contact + ")";
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NORMAL)
                .connectTimeout(Duration.ofSeconds(30))
                .build();
    }

    /** Fetches at most {@code maxFiles} new files (all when negative). */
    public Summary run(int maxFiles) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        List<String> listed = FeedListing.files(
                get(listing, HttpResponse.BodyHandlers.ofString()).body());
        List<String> downloaded = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        int present = 0;
        for (String name : listed) {
            if (Files.exists(dir.resolve(name))) {
                present++;
                continue;
            }
            if (maxFiles >= 0 && downloaded.size() + failed.size() >= maxFiles) {
                break;
            }
            try {
                fetch(name);
                downloaded.add(name);
            } catch (IOException e) {
                failed.add(name + ": " + e.getMessage());
            }
        }
        return new Summary(downloaded, present, failed);
    }

    private void fetch(String name) throws IOException, InterruptedException {
        String expected = expectedMd5(get(listing.resolve(name + ".md5"), HttpResponse.BodyHandlers.ofString())
                .body());
        Path part = dir.resolve("." + name + ".part");
        // A run stopped between the last byte and the rename leaves a complete part: keep it as it is.
        boolean complete = Files.exists(part) && md5(part).equalsIgnoreCase(expected);
        if (!complete && !download(name, part, true)) {
            download(name, part, false); // the server refused the range: the part was no prefix of the file
        }
        String actual = md5(part);
        if (!actual.equalsIgnoreCase(expected)) {
            Files.delete(part);
            throw new IOException("MD5 mismatch (expected " + expected + ", got " + actual + "): not kept");
        }
        Files.move(part, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE);
    }

    /** Writes the file into {@code part}, from where an earlier run stopped if {@code resume}; false on HTTP 416. */
    private boolean download(String name, Path part, boolean resume) throws IOException, InterruptedException {
        long have = resume && Files.exists(part) ? Files.size(part) : 0;
        HttpRequest.Builder request = request(listing.resolve(name));
        if (have > 0) {
            request.header("Range", "bytes=" + have + "-");
        }
        pause();
        HttpResponse<InputStream> response = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        if (response.statusCode() == 416 && have > 0) {
            response.body().close();
            return false;
        }
        boolean resumed = response.statusCode() == 206;
        if (!resumed && response.statusCode() != 200) {
            response.body().close();
            throw new IOException("HTTP " + response.statusCode() + " for " + name);
        }
        try (InputStream in = response.body();
                OutputStream out = Files.newOutputStream(
                        part,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE,
                        resumed ? StandardOpenOption.APPEND : StandardOpenOption.TRUNCATE_EXISTING)) {
            in.transferTo(out);
        }
        return true;
    }

    private <T> HttpResponse<T> get(URI uri, HttpResponse.BodyHandler<T> body)
            throws IOException, InterruptedException {
        pause();
        HttpResponse<T> response = http.send(request(uri).build(), body);
        if (response.statusCode() != 200) {
            throw new IOException("HTTP " + response.statusCode() + " for " + uri);
        }
        return response;
    }

    private HttpRequest.Builder request(URI uri) {
        return HttpRequest.newBuilder(uri).header("User-Agent", userAgent).timeout(Duration.ofMinutes(10));
    }

    private void pause() throws InterruptedException {
        Thread.sleep(delay.toMillis());
    }

    /** The digest in an NCBI {@code .md5} file ({@code MD5(name)= hex}) or a {@code md5sum} line ({@code hex  name}). */
    static String expectedMd5(String md5File) throws IOException {
        Matcher m = MD5.matcher(md5File);
        if (!m.find()) {
            throw new IOException("no MD5 digest in the .md5 file: " + md5File.strip());
        }
        return m.group(1).toLowerCase(Locale.ROOT);
    }

    static String md5(Path file) throws IOException {
        MessageDigest md5 = newMd5();
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), md5)) {
            in.transferTo(OutputStream.nullOutputStream());
        }
        return HexFormat.of().formatHex(md5.digest());
    }

    private static MessageDigest newMd5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
