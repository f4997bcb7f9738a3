package dev.bionerstream.inference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bionerstream.engine.BatchSize;
import dev.bionerstream.engine.Extraction;
import dev.bionerstream.engine.GateSetting;
import dev.bionerstream.engine.LengthSortedBatches;
import dev.bionerstream.engine.MrcEngine;
import dev.bionerstream.engine.Segmentation;
import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.model.ModelBundle;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A bundle with a presence gate in ONNX Runtime: the query-free windows get PyTorch's presence
 * logits (highest per type over the context), the MRC windows their start and end logits, in
 * batches of either kind or both. The bundle is model-export's tiny random one
 * ({@code python3 -m bioner_mrc.tiny_bundle}).
 */
class OrtPresenceGateTest {
    static FixtureBundle tiny;
    static ModelBundle bundle;
    static OrtMrcSession session;
    static JsonNode fixtures;

    @BeforeAll
    static void open() throws Exception {
        tiny = FixtureBundle.open("tiny-gated");
        bundle = tiny.bundle();
        session = tiny.session();
        fixtures = tiny.fixtures();
    }

    @AfterAll
    static void close() {
        tiny.close();
    }

    static MrcWindow gateWindow(JsonNode row) {
        long[] ids = FixtureBundle.toLongs(row.get("input_ids"));
        int context = ids.length - 2;
        return new MrcWindow(MrcWindow.GATE, 0, context, 0, context, ids, new long[ids.length]);
    }

    /** Per type, the highest of the fixture's presence logits over the context positions. */
    static double[] expectedPresence(JsonNode row) {
        JsonNode logits = row.get("presence_logits");
        double[] max = {Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY};
        for (int pos = 1; pos < logits.size() - 1; pos++) {
            for (int t = 0; t < 2; t++) {
                max[t] = Math.max(max[t], logits.get(pos).get(t).asDouble());
            }
        }
        return max;
    }

    @Test
    void gateWindowsGetTorchsPresenceAloneAndMixedWithMrcWindows() {
        List<MrcWindow> gates = new ArrayList<>();
        fixtures.get("gate").forEach(r -> gates.add(gateWindow(r)));
        List<MrcWindow> mixed = new ArrayList<>(gates);
        fixtures.get("sentences").forEach(s -> mixed.add(FixtureBundle.window(s)));
        List<WindowLogits> alone = session.run(gates);
        List<WindowLogits> together = session.run(mixed);
        for (int i = 0; i < gates.size(); i++) {
            double[] expected = expectedPresence(fixtures.get("gate").get(i));
            for (WindowLogits l : List.of(alone.get(i), together.get(i))) {
                assertThat(l.presence()).hasSize(2);
                for (int t = 0; t < 2; t++) {
                    assertThat((double) l.presence()[t]).isCloseTo(expected[t], within(1e-4));
                }
            }
        }
        for (int i = gates.size(); i < mixed.size(); i++) {
            JsonNode s = fixtures.get("sentences").get(i - gates.size());
            WindowLogits l = together.get(i);
            assertThat(l.presence()).as("an MRC window has no presence").isNull();
            assertThat((double) l.start()[1])
                    .isCloseTo(s.get("start_logits").get(1).get(1).asDouble(), within(1e-4));
            assertThat((double) l.end()[0])
                    .isCloseTo(s.get("end_logits").get(1).get(0).asDouble(), within(1e-4));
        }
    }

    @Test
    void theEngineRunsTheGateOfTheBundleThroughTheSession() {
        try (MrcEngine on = new MrcEngine(bundle, List.of(), GateSetting.ON);
                MrcEngine off = new MrcEngine(bundle, List.of(), GateSetting.OFF)) {
            List<String> texts = List.of("Treatment with cocaine induced seizures. Nothing here.");
            Extraction gated = on.extract(
                            texts, Segmentation.SENTENCES, new LengthSortedBatches(session, new BatchSize(8)))
                    .join();
            Extraction plain = off.extract(
                            texts, Segmentation.SENTENCES, new LengthSortedBatches(session, new BatchSize(8)))
                    .join();
            assertThat(plain.windows()).hasSize(4); // 2 sentences x 2 types
            assertThat(plain.skippedPasses()).isZero();
            assertThat(gated.windows().size() + gated.skippedPasses())
                    .as("2 gate passes, and every (sentence, type) pass either run or skipped")
                    .isEqualTo(2 + 4);
        }
    }

    @Test
    void aBundleWithoutAGateRefusesGateWindows() throws Exception {
        try (FixtureBundle plain = FixtureBundle.open("tiny-syntax")) {
            assertThat(plain.bundle().manifest().presenceOutput()).isEmpty();
            MrcWindow w = gateWindow(fixtures.get("gate").get(0));
            assertThatThrownBy(() -> plain.session().run(List.of(w)))
                    .hasMessageContaining("has no presence gate output");
        }
    }
}
