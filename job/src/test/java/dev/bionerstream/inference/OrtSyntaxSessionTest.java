package dev.bionerstream.inference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bionerstream.engine.BatchSize;
import dev.bionerstream.engine.Extraction;
import dev.bionerstream.engine.GateSetting;
import dev.bionerstream.engine.GeneSpans;
import dev.bionerstream.engine.LengthSortedBatches;
import dev.bionerstream.engine.MrcEngine;
import dev.bionerstream.engine.Segmentation;
import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.features.SyntaxInput;
import dev.bionerstream.model.BundleSyntax;
import dev.bionerstream.model.ModelBundle;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A bundle with combined feature attention and corpus tags (model-export's tiny random one,
 * {@code python3 -m bioner_mrc.tiny_bundle --syntax}): the engine builds from the fixture sentences
 * exactly the inputs model-export built (the corpus-tagged question, every syntax input from the
 * job's annotator), and ONNX Runtime gives PyTorch's logits on them.
 */
class OrtSyntaxSessionTest {
    static FixtureBundle tiny;
    static ModelBundle bundle;
    static OrtMrcSession session;
    static JsonNode fixtures;

    @BeforeAll
    static void open() throws Exception {
        tiny = FixtureBundle.open("tiny-syntax");
        bundle = tiny.bundle();
        session = tiny.session();
        fixtures = tiny.fixtures();
    }

    @AfterAll
    static void close() {
        tiny.close();
    }

    static MrcWindow engineWindow(MrcEngine engine, JsonNode row) {
        List<MrcWindow> windows = engine.windows(List.of(row.get("text").asText()), Segmentation.ONE_SENTENCE);
        assertThat(windows).hasSize(1);
        return windows.get(0);
    }

    /** A [seq][width] fixture input, row-major as the engine holds it. */
    static long[] flat(JsonNode rows) {
        List<Long> out = new ArrayList<>();
        rows.forEach(r -> r.forEach(v -> out.add(v.asLong())));
        return out.stream().mapToLong(Long::longValue).toArray();
    }

    @Test
    void theEngineBuildsModelExportsInputsAndOnnxRuntimeGivesTorchsLogits() {
        List<MrcWindow> windows = new ArrayList<>();
        for (JsonNode row : fixtures.get("sentences")) {
            try (MrcEngine engine =
                    new MrcEngine(bundle, List.of(row.get("type").asText()))) {
                MrcWindow w = engineWindow(engine, row);
                assertThat(w.inputIds())
                        .as("ids with the tagged question")
                        .containsExactly(FixtureBundle.toLongs(row.get("input_ids")));
                assertThat(w.syntax()).hasSize(3);
                for (SyntaxInput in : w.syntax()) {
                    String kind = in.kind().key();
                    assertThat(in.positions())
                            .as("%s positions of '%s'", kind, row.get("text").asText())
                            .containsExactly(flat(row.get(BundleSyntax.positionsInput(kind))));
                    assertThat(in.labels())
                            .as("%s labels of '%s'", kind, row.get("text").asText())
                            .containsExactly(flat(row.get(BundleSyntax.labelsInput(kind))));
                }
                windows.add(w);
            }
        }
        List<WindowLogits> logits = session.run(windows); // padded together: padding must not change them
        for (int i = 0; i < windows.size(); i++) {
            JsonNode row = fixtures.get("sentences").get(i);
            for (int k = 0; k < windows.get(i).contextLength(); k++) {
                for (int c = 0; c < 2; c++) {
                    assertThat((double) logits.get(i).start()[k * 2 + c])
                            .isCloseTo(row.get("start_logits").get(k + 1).get(c).asDouble(), within(1e-4));
                    assertThat((double) logits.get(i).end()[k * 2 + c])
                            .isCloseTo(row.get("end_logits").get(k + 1).get(c).asDouble(), within(1e-4));
                }
            }
        }
    }

    @Test
    void aTypeFollowsTheCorpusTheUserPicksInsteadOfTheBundlesDefault() {
        JsonNode row = fixtures.get("sentences").get(1); // a disease question; the bundle's default is NCBI-disease
        try (MrcEngine chosen = new MrcEngine(
                        bundle,
                        List.of("disease"),
                        GateSetting.BUNDLE,
                        Map.of("disease", "BC5CDR"),
                        GeneSpans.AS_DECODED);
                MrcEngine byDefault = new MrcEngine(bundle, List.of("disease"))) {
            assertThat(engineWindow(byDefault, row).inputIds())
                    .containsExactly(FixtureBundle.toLongs(row.get("input_ids")));
            assertThat(engineWindow(chosen, row).inputIds())
                    .isNotEqualTo(engineWindow(byDefault, row).inputIds());
        }
        assertThatThrownBy(() -> new MrcEngine(
                        bundle, List.of(), GateSetting.BUNDLE, Map.of("disease", "BC2GM"), GeneSpans.AS_DECODED))
                .hasMessageContaining("learnt the corpora [BC5CDR, NCBI-disease]");
        assertThatThrownBy(() -> new MrcEngine(bundle, List.of(), GateSetting.ON))
                .hasMessageContaining("has no presence gate");
    }

    @Test
    void theEngineExtractsThroughTheSyntaxStepFromRawText() {
        try (MrcEngine engine = new MrcEngine(bundle, List.of())) {
            Extraction x = engine.extract(
                            List.of("Treatment with cocaine induced seizures. The α-interferon was stopped.", ""),
                            Segmentation.SENTENCES,
                            new LengthSortedBatches(session, new BatchSize(3)))
                    .join();
            assertThat(x.windows()).hasSize(2 * 2);
            assertThat(x.entities()).hasSize(2);
            assertThat(x.entities().get(1)).isEmpty();
        }
    }
}
