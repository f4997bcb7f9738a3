package dev.bionerstream.inference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.model.ModelBundle;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The committed default bundle in ONNX Runtime gives PyTorch's logits (fixtures written by model-export). */
class OrtMrcSessionTest {
    static OrtMrcSession session;
    static JsonNode fixtures;

    @BeforeAll
    static void open() throws Exception {
        session = OrtMrcSession.open(ModelBundle.loadDefault(), InferenceOptions.cpu(2));
        try (var in = OrtMrcSessionTest.class.getResourceAsStream(ModelBundle.DEFAULT_RESOURCE + "fixtures.json")) {
            fixtures = new ObjectMapper().readTree(in);
        }
    }

    @AfterAll
    static void close() {
        session.close();
    }

    static MrcWindow window(JsonNode s) {
        long[] ids = toLongs(s.get("input_ids"));
        long[] types = toLongs(s.get("token_type_ids"));
        int context = (int) java.util.Arrays.stream(types).filter(t -> t == 0).count() - 2;
        return new MrcWindow(0, 0, context, 0, context, ids, types);
    }

    static long[] toLongs(JsonNode a) {
        long[] out = new long[a.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = a.get(i).asLong();
        }
        return out;
    }

    @Test
    void logitsEqualTorchOneByOneAndPaddedInABatch() {
        double atol = 1e-4;
        List<MrcWindow> batch = new ArrayList<>();
        fixtures.get("sentences").forEach(s -> batch.add(window(s)));
        List<WindowLogits> together = session.run(batch);
        for (int i = 0; i < batch.size(); i++) {
            JsonNode s = fixtures.get("sentences").get(i);
            WindowLogits alone = session.run(List.of(batch.get(i))).get(0);
            for (WindowLogits l : List.of(alone, together.get(i))) {
                for (int k = 0; k < l.contextLength(); k++) {
                    for (int c = 0; c < 2; c++) {
                        assertThat((double) l.start()[2 * k + c])
                                .isCloseTo(
                                        s.get("start_logits").get(k + 1).get(c).asDouble(), within(atol));
                        assertThat((double) l.end()[2 * k + c])
                                .isCloseTo(s.get("end_logits").get(k + 1).get(c).asDouble(), within(atol));
                    }
                }
            }
        }
        assertThat(session.provider()).isEqualTo("CPU");
    }

    @Test
    void cudaRequestedWithoutAGpuFallsBackToCpu() {
        try (OrtMrcSession s = OrtMrcSession.open(
                ModelBundle.loadDefault(),
                new InferenceOptions(Device.parse("cuda:0"), 1, 1, GraphOptimization.BASIC))) {
            assertThat(s.provider()).isEqualTo("CPU");
            assertThat(s.run(List.of(window(fixtures.get("sentences").get(0))))).hasSize(1);
        }
    }
}
