package dev.bionerstream.cli;

import dev.bionerstream.formats.Annotated;
import dev.bionerstream.formats.PubTator;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * PubTator files as the measuring commands read them: plain, or gzip-compressed when the name ends in
 * .gz; a mention whose text differs from its document's at its offsets is kept (published corpora have
 * a few), anything else malformed stops the command.
 */
final class PubTatorFiles {
    private PubTatorFiles() {}

    static java.util.List<Annotated> read(Path file) throws IOException {
        InputStream raw = Files.newInputStream(file);
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                file.toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw, StandardCharsets.UTF_8))) {
            return PubTator.read(in, PubTator.MentionText.MAY_DIFFER);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ", " + e.getMessage(), e);
        }
    }
}
