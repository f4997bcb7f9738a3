package dev.bionerstream.cli;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * The spans model-export predicted on every {@code every}-th sentence of each test split
 * ({@code predictions.json.gz}, written by {@code export --evaluate-corpus} and
 * {@code bioner_mrc.stored_predictions}).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
record StoredPredictions(String split, int every, List<Sentence> sentences) {
    static final String FILE = "predictions.json.gz";

    /** One sampled sentence: its index in the split, its text, and per type the {@code [start, end)} spans. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Sentence(String corpus, int index, String text, Map<String, List<List<Integer>>> spans) {}

    static StoredPredictions read(Path bundle) {
        Path file = bundle.resolve(FILE);
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
            return new ObjectMapper().readValue(in, StoredPredictions.class);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    file + " cannot be read: export the bundle with --evaluate-corpus, or write it with "
                            + "python3 -m bioner_mrc.stored_predictions",
                    e);
        }
    }

    List<Sentence> of(String corpus) {
        return sentences.stream().filter(s -> s.corpus().equals(corpus)).toList();
    }
}
