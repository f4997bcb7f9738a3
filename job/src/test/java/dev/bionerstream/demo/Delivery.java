package dev.bionerstream.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bionerstream.avro.DocumentEntities;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** What came out for a list of input abstracts: the ids missing and those seen more than once. */
public record Delivery(Set<String> missing, Set<String> duplicated, int received) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public static Delivery of(List<String> inputJson, List<DocumentEntities> output) {
        Set<String> expected = new TreeSet<>();
        for (String line : inputJson) {
            try {
                expected.add(JSON.readTree(line).get("id").asText());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        Map<String, Long> counts = output.stream()
                .collect(Collectors.groupingBy(d -> d.getDocumentId().toString(), Collectors.counting()));
        Set<String> missing = new TreeSet<>(expected);
        missing.removeAll(counts.keySet());
        Set<String> duplicated = counts.entrySet().stream()
                .filter(e -> e.getValue() > 1)
                .map(Map.Entry::getKey)
                .collect(Collectors.toCollection(TreeSet::new));
        return new Delivery(missing, duplicated, output.size());
    }

    /** Distinct document ids in {@code output}. */
    public static long distinct(List<DocumentEntities> output) {
        return output.stream().map(d -> d.getDocumentId().toString()).distinct().count();
    }
}
