package dev.bionerstream.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bionerstream.demo.SampleAbstracts;
import dev.bionerstream.eval.IobCorpus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The texts a benchmark runs on, at most {@code limit} of them. */
public final class BenchTexts {
    private BenchTexts() {}

    /** The sample abstracts, title and abstract as one text. */
    public static List<String> samples(int limit) throws IOException {
        return samples(SampleAbstracts.RESOURCE, limit);
    }

    /** The sample abstracts of {@code resource} (a {@link SampleAbstracts} file), title and abstract as one text. */
    public static List<String> samples(String resource, int limit) throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<String> texts = new ArrayList<>();
        for (String line : SampleAbstracts.load(resource, limit)) {
            JsonNode n = json.readTree(line);
            texts.add(n.get("title").asText() + " " + n.get("abstract").asText());
        }
        return texts;
    }

    /** One text per non-blank line of {@code file}. */
    public static List<String> lines(Path file, int limit) throws IOException {
        return Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                .filter(line -> !line.isBlank())
                .limit(limit)
                .toList();
    }

    /** Consecutive sentences of an IOB corpus, {@code sentencesPerText} to a text. */
    public static List<String> iob(Path file, int sentencesPerText, int limit) throws IOException {
        List<String> sentences = IobCorpus.read(file, Map.of()).sentences();
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < sentences.size() && texts.size() < limit; i += sentencesPerText) {
            texts.add(String.join(" ", sentences.subList(i, Math.min(sentences.size(), i + sentencesPerText))));
        }
        return texts;
    }
}
