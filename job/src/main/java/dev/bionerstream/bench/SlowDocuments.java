package dev.bionerstream.bench;

import dev.bionerstream.avro.DocumentEntities;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * Where the slowest documents of a latency run spent their time, split at the moment the job had
 * their entities ({@code DocumentEntities.processingTime}, stamped when the model's last pass for
 * the document returned): before it, reading the record and the model's queue and passes; after
 * it, waiting for the documents ahead of it (results leave the async operator in input order),
 * linking, the sink and the reader. Beside each, its sentences and characters: the model's work
 * grows with both (one pass per sentence and type, each as long as its sentence).
 *
 * @param appended each record's timestamp on the input topic (epoch milliseconds)
 * @param seen when the reader first saw each document
 * @param records the reader's first record of each document
 */
record SlowDocuments(Map<String, Long> appended, Map<String, Long> seen, Map<String, DocumentEntities> records) {

    /** The slowest 1% (at least {@code atLeast}) one per line, then the mean of all, for the reader {@code reader}. */
    List<String> lines(String reader, int atLeast) {
        List<String> ids = seen.keySet().stream()
                .filter(id -> records.containsKey(id) && appended.containsKey(id))
                .sorted(Comparator.comparingLong(this::total).reversed())
                .toList();
        int n = Math.min(ids.size(), Math.max(atLeast, (int) Math.ceil(ids.size() / 100.0)));
        List<String> out = new ArrayList<>();
        out.add(String.format(
                "  the %d slowest to %s: latency = until the job had its entities + from then until seen:", n, reader));
        for (String id : ids.subList(0, n)) {
            out.add(String.format(
                    "    %-24s %5.2f s = %5.2f s + %5.2f s, %d sentences, %d characters",
                    id,
                    total(id) / 1e3,
                    untilResult(id) / 1e3,
                    afterResult(id) / 1e3,
                    records.get(id).getSentences(),
                    characters(id)));
        }
        out.add(String.format(
                "    %-24s %5.2f s = %5.2f s + %5.2f s, %.1f sentences, %.0f characters",
                "mean of all " + ids.size(),
                mean(ids, this::total),
                mean(ids, this::untilResult),
                mean(ids, this::afterResult),
                ids.stream()
                        .mapToInt(id -> records.get(id).getSentences())
                        .average()
                        .orElse(0),
                ids.stream().mapToInt(this::characters).average().orElse(0)));
        return out;
    }

    private int characters(String id) {
        DocumentEntities d = records.get(id);
        return length(d.getTitle()) + length(d.getAbstractText());
    }

    private static int length(CharSequence text) {
        return text == null ? 0 : text.length();
    }

    private long total(String id) {
        return seen.get(id) - appended.get(id);
    }

    private long untilResult(String id) {
        return records.get(id).getProcessingTime().toEpochMilli() - appended.get(id);
    }

    private long afterResult(String id) {
        return seen.get(id) - records.get(id).getProcessingTime().toEpochMilli();
    }

    private static double mean(List<String> ids, ToLongFunction<String> millis) {
        return ids.stream().mapToLong(millis).average().orElse(0) / 1e3;
    }
}
