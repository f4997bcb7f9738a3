package dev.bionerstream.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * OpenSearch's security plugin as the build left it in its target folder: the zip Maven resolved
 * (from Central or the mirror settings.xml names) in {@code opensearch-security-zip/}, and the plugin
 * unpacked from it in {@code opensearch-plugins/opensearch-security/}. Maven cannot check
 * the zip (Central publishes no checksums for it), so it is checked here, against the SHA-256 the
 * build pins ({@code opensearch-security.sha256}, passed on by failsafe), before a node installs it.
 */
public final class SecurityPluginZip {
    private SecurityPluginZip() {}

    /**
     * The plugins folder under {@code target} (for a node's {@code path.plugins}), once the zip the
     * plugin was unpacked from proved to be the pinned one.
     */
    public static Path checked(Path target) throws IOException {
        Path plugins = target.resolve("opensearch-plugins");
        Path unpacked = plugins.resolve("opensearch-security");
        Path zipDir = target.resolve("opensearch-security-zip");
        List<Path> zips;
        try (Stream<Path> files = Files.exists(zipDir) ? Files.list(zipDir) : Stream.empty()) {
            zips = files.filter(f -> f.getFileName().toString().matches("opensearch-security-.*\\.zip"))
                    .toList();
        }
        if (zips.size() != 1 || !Files.isDirectory(unpacked)) {
            throw new IllegalStateException(target.toAbsolutePath() + " holds no opensearch-security zip and plugin:"
                    + " run the test with mvn verify, whose pre-integration-test phase resolves and unpacks them");
        }
        String pinned = System.getProperty("opensearch-security.sha256");
        if (pinned == null) {
            throw new IllegalStateException(
                    "system property opensearch-security.sha256 is not set (job/pom.xml's failsafe configuration)");
        }
        String actual = sha256(zips.get(0));
        if (!actual.equals(pinned)) {
            throw new IllegalStateException(zips.get(0).toAbsolutePath() + " is not the opensearch-security the build"
                    + " pins (SHA-256 " + actual + ", pinned " + pinned + "; did a mirror serve other bytes?): delete"
                    + " org/opensearch/plugin/opensearch-security from the local Maven repository and build again");
        }
        return plugins;
    }

    private static String sha256(Path file) throws IOException {
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), MessageDigest.getInstance("SHA-256"))) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
            return HexFormat.of()
                    .formatHex(((DigestInputStream) in).getMessageDigest().digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
