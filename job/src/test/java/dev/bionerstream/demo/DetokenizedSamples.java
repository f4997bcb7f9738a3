package dev.bionerstream.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.bionerstream.text.Detokenizer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Rewrites sample records written from a tokenized corpus (model-export's {@code
 * bioner_mrc.sample}) as published text: the title and abstract through {@link Detokenizer} (by the
 * record's language), the gold spans moved onto the new offsets, every other field kept. A one-off
 * tool, so it lives with the tests and not in the job's jar ({@code DetokenizedSamplesTest} keeps the
 * shipped samples what it writes). How the shipped samples were made, from the repository root after
 * {@code mvn test-compile}:
 *
 * <pre>
 * java -cp "job/target/test-classes:job/target/classes:$(cat job/target/cli-classpath.txt)" \
 *     dev.bionerstream.demo.DetokenizedSamples \
 *     job/src/main/resources/samples/abstracts.jsonl job/src/main/resources/samples/abstracts-es.jsonl
 * </pre>
 *
 * Each file is rewritten in place; text that is already detokenized passes through unchanged.
 */
public final class DetokenizedSamples {
    private static final ObjectMapper JSON = new ObjectMapper();

    private DetokenizedSamples() {}

    public static void main(String... files) throws IOException {
        for (String file : files) {
            Path path = Path.of(file);
            List<String> out = new ArrayList<>();
            for (String line : Files.readAllLines(path, StandardCharsets.UTF_8)) {
                if (!line.isBlank()) {
                    out.add(rewrite(line));
                }
            }
            Files.write(path, out, StandardCharsets.UTF_8);
            System.out.println("detokenized " + out.size() + " records in " + path);
        }
    }

    /** One record (a JSON line) with its title and abstract detokenized and its gold spans moved. */
    public static String rewrite(String line) throws IOException {
        ObjectNode record = (ObjectNode) JSON.readTree(line);
        String language = record.path("language").asText("eng");
        Detokenizer rules = Detokenizer.forLanguage(language);
        Detokenizer.Result title = rules.detokenize(record.path("title").asText(""));
        Detokenizer.Result body = rules.detokenize(record.path("abstract").asText(""));
        if (record.hasNonNull("title")) {
            record.put("title", title.text());
        }
        if (record.hasNonNull("abstract")) {
            record.put("abstract", body.text());
        }
        for (JsonNode g : record.path("gold")) {
            ObjectNode span = (ObjectNode) g;
            Detokenizer.Result field = span.path("field").asText().equals("TITLE") ? title : body;
            span.put("start", field.map(span.path("start").asInt()));
            span.put("end", field.map(span.path("end").asInt()));
        }
        return JSON.writeValueAsString(record);
    }
}
