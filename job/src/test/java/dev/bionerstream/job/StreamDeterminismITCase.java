package dev.bionerstream.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.avro.Mention;
import dev.bionerstream.demo.Delivery;
import dev.bionerstream.demo.EmbeddedKafka;
import dev.bionerstream.demo.LocalPipeline;
import dev.bionerstream.demo.SampleAbstracts;
import dev.bionerstream.demo.SharedService;
import dev.bionerstream.demo.TestPipelines;
import dev.bionerstream.engine.BundleDeterminismITCase;
import dev.bionerstream.serving.SessionFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The streaming job gives the same entities under two loads: the CPU default served one abstract at a
 * time in batches of one window, at parallelism 1, and all abstracts at once in batches of up to 32
 * windows shared by two subtasks. Same event ids, scores within the engine test's tolerance
 * ({@code BundleDeterminismITCase}): what lets a replay upsert and an at-least-once repeat be dropped.
 */
class StreamDeterminismITCase {
    @RegisterExtension
    static final SharedService<EmbeddedKafka> KAFKA = SharedService.kafka();

    static final Path CPU_DEFAULT = Path.of("..", "bundles", "default-int8");
    static final int ABSTRACTS = 6;

    @Test
    void twoLoadsGiveTheSameEventsAndScores() throws Exception {
        List<String> abstracts = SampleAbstracts.load(ABSTRACTS);
        Map<String, List<Mention>> quiet = run(abstracts, 1, 1, true);
        Map<String, List<Mention>> busy = run(abstracts, 2, 32, false);
        assertThat(quiet).hasSize(ABSTRACTS);
        assertThat(busy.keySet()).isEqualTo(quiet.keySet());
        for (String document : quiet.keySet()) {
            List<Mention> a = quiet.get(document), b = busy.get(document);
            assertThat(b.stream().map(StreamDeterminismITCase::describe).toList())
                    .as(document + ": one at a time, batch 1 (expected) against all at once, batch 32, parallelism 2")
                    .isEqualTo(a.stream().map(StreamDeterminismITCase::describe).toList());
            for (int i = 0; i < a.size(); i++) {
                assertThat(b.get(i).getScore())
                        .as(document + " " + describe(a.get(i)))
                        .isCloseTo(a.get(i).getScore(), offset(BundleDeterminismITCase.SCORE_TOLERANCE));
            }
        }
    }

    /** Each document's mentions, by document id, from one run of the job with the CPU default. */
    private static Map<String, List<Mention>> run(
            List<String> abstracts, int parallelism, int batch, boolean oneAtATime) throws Exception {
        Configuration options = Configuration.fromMap(Map.of(
                "job.checkpoint-interval", "1 s",
                "job.parallelism", String.valueOf(parallelism),
                "batch.max-size", String.valueOf(batch),
                "model.bundle", CPU_DEFAULT.toString(),
                "model.threads", "1"));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(parallelism);
        try (LocalPipeline p =
                TestPipelines.start(KAFKA, "determinism-" + parallelism, options, env, SessionFactory.ONNX_RUNTIME)) {
            if (oneAtATime) {
                for (int i = 0; i < abstracts.size(); i++) {
                    p.produce(List.of(abstracts.get(i)));
                    int expected = i + 1;
                    p.documents.pollWhileProgressing(
                            "document " + expected + " of " + abstracts.size(),
                            l -> Delivery.distinct(l) >= expected,
                            Duration.ofMinutes(3));
                }
            } else {
                p.produce(abstracts);
            }
            List<DocumentEntities> docs = p.documents.pollWhileProgressing(
                    abstracts.size() + " documents",
                    l -> Delivery.distinct(l) >= abstracts.size(),
                    Duration.ofMinutes(3));
            return docs.stream()
                    .collect(Collectors.toMap(
                            DocumentEntities::getDocumentId, DocumentEntities::getEntities, (x, y) -> x, TreeMap::new));
        }
    }

    private static String describe(Mention m) {
        return m.getEventId() + " " + m.getEntityType() + " " + m.getField() + " [" + m.getStart() + ", " + m.getEnd()
                + ") " + m.getText();
    }
}
