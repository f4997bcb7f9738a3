package dev.bionerstream.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import dev.bionerstream.bench.BenchTexts;
import dev.bionerstream.demo.SampleAbstracts;
import dev.bionerstream.inference.InferenceOptions;
import dev.bionerstream.inference.MrcSession;
import dev.bionerstream.inference.OrtMrcSession;
import dev.bionerstream.job.EventIds;
import dev.bionerstream.model.ModelBundle;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Same text, same model, same answer, whatever the batch: every shipped bundle finds the same spans,
 * hence the same event ids, in a text run alone, in batches of 1, 7 and 32 windows, and beside other
 * neighbours (the texts reversed, so each window is padded to other lengths), with scores equal within
 * {@link #SCORE_TOLERANCE}. The 2.1.0-int8 bundle, whose activations were quantized with one scale for
 * the whole batch, changed 58 spans in 35 of 60 abstracts between batch 32 and batch 7 here (issue 38).
 */
public class BundleDeterminismITCase {
    /** Scores are printed to 4 digits; measured here: no difference at all, for each bundle (AMD EPYC Zen 4). */
    public static final double SCORE_TOLERANCE = 1e-5;

    static final int TEXTS = 8;

    static Stream<Arguments> shippedBundles() {
        return Stream.of(
                Arguments.of(
                        "the English float16 bundle in the jar", ModelBundle.loadDefault(), SampleAbstracts.RESOURCE),
                Arguments.of(
                        "the English int8 CPU default",
                        ModelBundle.load(Path.of("..", "bundles", "default-int8")),
                        SampleAbstracts.RESOURCE),
                Arguments.of(
                        "the Spanish bundle",
                        ModelBundle.load(Path.of("..", "bundles", "pharmaconer-es")),
                        SampleAbstracts.SPANISH_RESOURCE));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shippedBundles")
    void findsTheSameEntitiesWhateverTheBatch(String name, ModelBundle bundle, String samples) throws Exception {
        List<String> texts = BenchTexts.samples(samples, TEXTS);
        assertThat(texts).hasSize(TEXTS);
        String model = bundle.manifest().id();
        try (MrcSession session = OrtMrcSession.open(bundle, InferenceOptions.cpu(2));
                MrcEngine engine = new MrcEngine(bundle, List.of(), GateSetting.BUNDLE)) {
            List<List<Entity>> alone = new ArrayList<>();
            for (String text : texts) {
                alone.add(extract(engine, session, List.of(text), 32).get(0));
            }
            assertThat(alone.stream().mapToInt(List::size).sum())
                    .as("entities found")
                    .isGreaterThan(TEXTS);
            Map<String, List<List<Entity>>> runs = new LinkedHashMap<>();
            for (int batch : new int[] {1, 7, 32}) {
                runs.put("all texts, batch " + batch, extract(engine, session, texts, batch));
            }
            List<String> reversed = new ArrayList<>(texts);
            Collections.reverse(reversed);
            List<List<Entity>> backwards = new ArrayList<>(extract(engine, session, reversed, 32));
            Collections.reverse(backwards);
            runs.put("texts reversed, batch 32", backwards);

            double worst = 0;
            for (var run : runs.entrySet()) {
                for (int t = 0; t < texts.size(); t++) {
                    String where = name + ", text " + t + ", " + run.getKey() + " against the text alone";
                    List<Entity> got = run.getValue().get(t);
                    assertThat(spans(got, t, model)).as(where).isEqualTo(spans(alone.get(t), t, model));
                    for (int e = 0; e < got.size(); e++) {
                        worst = Math.max(
                                worst,
                                Math.abs(
                                        got.get(e).score() - alone.get(t).get(e).score()));
                        assertThat(got.get(e).score())
                                .as(where + ", score of " + got.get(e))
                                .isCloseTo(alone.get(t).get(e).score(), offset(SCORE_TOLERANCE));
                    }
                }
            }
            System.out.printf("%s: same spans in every run; largest score difference %.1e%n", name, worst);
        }
    }

    private static List<List<Entity>> extract(MrcEngine engine, MrcSession session, List<String> texts, int batch) {
        return engine.extract(texts, Segmentation.SENTENCES, new LengthSortedBatches(session, new BatchSize(batch)))
                .join()
                .entities();
    }

    /** Each entity as its event id and span, in the engine's order. */
    private static List<String> spans(List<Entity> entities, int text, String model) {
        return entities.stream()
                .map(e -> EventIds.mention("text-" + text, "TEXT", e.start(), e.end(), e.type(), model) + " " + e.type()
                        + " [" + e.start() + ", " + e.end() + ") " + e.text())
                .toList();
    }
}
