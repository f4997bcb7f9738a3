package dev.bionerstream.inference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.model.ModelBundle;
import dev.bionerstream.model.TestBundles;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A bundle opened in ONNX Runtime on one CPU thread, with the fixtures (inputs and PyTorch's logits)
 * model-export wrote beside it: one of model-export's tiny test bundles ({@code bioner_mrc.tiny_bundle}),
 * or the jar's default.
 */
record FixtureBundle(ModelBundle bundle, OrtMrcSession session, JsonNode fixtures) implements AutoCloseable {
    static final String FIXTURES = "fixtures.json";

    /** @param name a folder under the test resources' {@code bundles/} */
    static FixtureBundle open(String name) throws Exception {
        Path dir = TestBundles.path(name);
        return open(
                ModelBundle.load(dir),
                new ObjectMapper().readTree(dir.resolve(FIXTURES).toFile()));
    }

    /** The jar's default bundle: it reads the 67 MB model, so only the integration tests open it. */
    static FixtureBundle openDefault() throws Exception {
        try (InputStream in = FixtureBundle.class.getResourceAsStream(ModelBundle.DEFAULT_RESOURCE + FIXTURES)) {
            return open(ModelBundle.loadDefault(), new ObjectMapper().readTree(in));
        }
    }

    private static FixtureBundle open(ModelBundle bundle, JsonNode fixtures) {
        return new FixtureBundle(bundle, OrtMrcSession.open(bundle, InferenceOptions.cpu(1)), fixtures);
    }

    /** The fixture sentence's MRC window: the query, then the context ({@code token_type_ids} 0). */
    static MrcWindow window(JsonNode sentence) {
        long[] ids = toLongs(sentence.get("input_ids"));
        long[] types = toLongs(sentence.get("token_type_ids"));
        int context = (int) Arrays.stream(types).filter(t -> t == 0).count() - 2;
        return new MrcWindow(0, 0, context, 0, context, ids, types);
    }

    static long[] toLongs(JsonNode a) {
        long[] out = new long[a.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = a.get(i).asLong();
        }
        return out;
    }

    List<MrcWindow> sentenceWindows() {
        List<MrcWindow> windows = new ArrayList<>();
        fixtures.get("sentences").forEach(s -> windows.add(window(s)));
        return windows;
    }

    /**
     * Each fixture sentence alone, and all of them in one batch (padded to the longest, as the engine
     * sends them), get PyTorch's start and end logits at every context position.
     */
    void assertLogitsOfTorchAloneAndPaddedInABatch(double atol) {
        List<MrcWindow> batch = sentenceWindows();
        assertThat(batch.stream().mapToInt(MrcWindow::length).distinct())
                .as("sentences of different lengths, so that the batch pads")
                .hasSizeGreaterThan(1);
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
    }

    @Override
    public void close() {
        session.close();
    }
}
