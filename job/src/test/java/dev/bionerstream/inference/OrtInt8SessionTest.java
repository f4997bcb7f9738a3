package dev.bionerstream.inference;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.model.ModelBundle;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An int8 bundle (model-export's {@code bioner_mrc.quantize} of the tiny gated bundle: int8 encoder
 * MatMuls, activations quantized at run time, one scale per token) in ONNX Runtime on the CPU: its
 * logits are those of the ONNX reference interpreter that wrote its fixtures, close to the float
 * bundle's it came from, and a window's logits do not depend on the windows batched and padded with it.
 */
class OrtInt8SessionTest {
    /**
     * ONNX Runtime against the reference interpreter, same int8 graph: they differ only where a float
     * rounding difference moves an activation across a quantization step.
     */
    static final double REFERENCE_TOLERANCE = 1e-3;
    /** The int8 graph against the float graph: the quantization error of this random tiny model. */
    static final double FLOAT_TOLERANCE = 0.05;

    static FixtureBundle int8Bundle;
    static OrtMrcSession int8;
    static FixtureBundle fpBundle;
    static OrtMrcSession fp;
    static JsonNode fixtures;

    @BeforeAll
    static void open() throws Exception {
        int8Bundle = FixtureBundle.open("tiny-gated-int8");
        int8 = int8Bundle.session();
        fixtures = int8Bundle.fixtures();
        fpBundle = FixtureBundle.open("tiny-gated");
        fp = fpBundle.session();
    }

    @AfterAll
    static void close() {
        int8Bundle.close();
        fpBundle.close();
    }

    static List<MrcWindow> windows() {
        return int8Bundle.sentenceWindows();
    }

    /** Largest difference of start and end logits over the context positions of each window. */
    static double maxDiff(List<WindowLogits> a, List<WindowLogits> b) {
        double worst = 0;
        for (int i = 0; i < a.size(); i++) {
            for (int k = 0; k < 2 * a.get(i).contextLength(); k++) {
                worst = Math.max(worst, Math.abs(a.get(i).start()[k] - b.get(i).start()[k]));
                worst = Math.max(worst, Math.abs(a.get(i).end()[k] - b.get(i).end()[k]));
            }
        }
        return worst;
    }

    @Test
    void theManifestSaysTheBundleIsQuantized() {
        assertThat(int8Bundle.bundle().manifest().quantized()).isTrue();
        assertThat(int8Bundle.bundle().manifest().quantization().ops())
                .contains("QuantizeLinear", "MatMulInteger")
                .doesNotContain("DynamicQuantizeLinear");
        assertThat(ModelBundle.loadDefault().manifest().quantized()).isFalse();
    }

    @Test
    void eachWindowAloneGetsTheReferenceInterpretersLogits() {
        double worst = 0;
        for (int i = 0; i < windows().size(); i++) {
            JsonNode s = fixtures.get("sentences").get(i);
            WindowLogits l = int8.run(List.of(windows().get(i))).get(0);
            for (int k = 0; k < l.contextLength(); k++) {
                for (int c = 0; c < 2; c++) {
                    worst = Math.max(
                            worst,
                            Math.abs(l.start()[2 * k + c]
                                    - s.get("start_logits").get(k + 1).get(c).asDouble()));
                    worst = Math.max(
                            worst,
                            Math.abs(l.end()[2 * k + c]
                                    - s.get("end_logits").get(k + 1).get(c).asDouble()));
                }
            }
        }
        System.out.printf("int8 tiny bundle, ONNX Runtime vs reference interpreter: max |diff| %.2e%n", worst);
        assertThat(worst).isLessThan(REFERENCE_TOLERANCE);
    }

    /**
     * The whole point of per-token scales (issue 38): with one scale for the batch tensor, as
     * {@code DynamicQuantizeLinear} has, a window's integers changed with its batch-mates and padding.
     */
    @Test
    void aWindowGetsTheSameLogitsAloneAndBatchedWithOthers() {
        List<MrcWindow> windows = windows();
        List<WindowLogits> batched = int8.run(windows);
        List<MrcWindow> reversed = new java.util.ArrayList<>(windows);
        java.util.Collections.reverse(reversed);
        List<WindowLogits> backwards = int8.run(reversed);
        for (int i = 0; i < windows.size(); i++) {
            List<WindowLogits> alone = int8.run(List.of(windows.get(i)));
            assertThat(maxDiff(alone, List.of(batched.get(i))))
                    .as("window " + i + " in a batch")
                    .isZero();
            assertThat(maxDiff(alone, List.of(backwards.get(windows.size() - 1 - i))))
                    .as("window " + i + " among the windows reversed")
                    .isZero();
        }
    }

    @Test
    void logitsStayCloseToTheFloatBundlesAloneAndInABatch() {
        List<MrcWindow> windows = windows();
        double batched = maxDiff(int8.run(windows), fp.run(windows));
        double alone = 0;
        for (MrcWindow w : windows) {
            alone = Math.max(alone, maxDiff(int8.run(List.of(w)), fp.run(List.of(w))));
        }
        System.out.printf("int8 vs float tiny bundle: max |diff| %.3f alone, %.3f in a batch%n", alone, batched);
        assertThat(alone).isLessThan(FLOAT_TOLERANCE).isGreaterThan(0);
        assertThat(batched).isLessThan(FLOAT_TOLERANCE);
    }
}
