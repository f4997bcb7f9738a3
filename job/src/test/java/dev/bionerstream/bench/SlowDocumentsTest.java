package dev.bionerstream.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.avro.DocumentEntities;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SlowDocumentsTest {

    private final Map<String, Long> appended = new HashMap<>();
    private final Map<String, Long> seen = new HashMap<>();
    private final Map<String, DocumentEntities> records = new HashMap<>();

    /** A document appended at 0 whose entities the job had at {@code result} ms, seen at {@code visible} ms. */
    private void document(String id, long result, long visible, int sentences) {
        document(id, result, visible, sentences, 100);
    }

    private void document(String id, long result, long visible, int sentences, int characters) {
        appended.put(id, 1_000_000L);
        seen.put(id, 1_000_000L + visible);
        records.put(
                id,
                DocumentEntities.newBuilder()
                        .setEventId("e-" + id)
                        .setDocumentId(id)
                        .setModelName("bioner-mrc")
                        .setModelVersion("1")
                        .setSentences(sentences)
                        .setProcessingTime(Instant.ofEpochMilli(1_000_000L + result))
                        .setTitle("T")
                        .setAbstractText("a".repeat(Math.max(0, characters - 1)))
                        .setEntities(List.of())
                        .build());
    }

    @Test
    void listsTheSlowestFirstWithTheirLatencySplitAtTheJobsResult() {
        document("quick", 100, 200, 5);
        document("long", 900, 1000, 20, 2400);
        document("behind", 150, 1100, 6);
        document("medium", 300, 400, 9);

        List<String> lines = new SlowDocuments(appended, seen, records).lines("reader", 3);

        assertThat(lines)
                .containsExactly(
                        "  the 3 slowest to reader: latency = until the job had its entities + from then until seen:",
                        "    behind                    1.10 s =  0.15 s +  0.95 s, 6 sentences, 100 characters",
                        "    long                      1.00 s =  0.90 s +  0.10 s, 20 sentences, 2400 characters",
                        "    medium                    0.40 s =  0.30 s +  0.10 s, 9 sentences, 100 characters",
                        "    mean of all 4             0.68 s =  0.36 s +  0.31 s, 10.0 sentences, 675 characters");
    }

    @Test
    void listsOnePercentOfALongRunAndLeavesOutDocumentsItDidNotSee() {
        for (int i = 0; i < 500; i++) {
            document("d" + i, i, 2L * i, 1);
        }
        seen.remove("d499");

        List<String> lines = new SlowDocuments(appended, seen, records).lines("reader", 3);

        assertThat(lines).hasSize(1 + 5 + 1);
        assertThat(lines.get(1)).startsWith("    d498 ");
        assertThat(lines.get(6)).startsWith("    mean of all 499 ");
    }
}
