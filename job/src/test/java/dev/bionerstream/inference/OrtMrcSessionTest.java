package dev.bionerstream.inference;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A bundle in ONNX Runtime gives PyTorch's logits (fixtures written by model-export), here the tiny
 * gated one; {@code OrtMrcSessionITCase} checks the same of the default bundle.
 */
class OrtMrcSessionTest {
    static FixtureBundle tiny;

    @BeforeAll
    static void open() throws Exception {
        tiny = FixtureBundle.open("tiny-gated");
    }

    @AfterAll
    static void close() {
        tiny.close();
    }

    @Test
    void logitsEqualTorchOneByOneAndPaddedInABatch() {
        tiny.assertLogitsOfTorchAloneAndPaddedInABatch(1e-4);
        assertThat(tiny.session().provider()).isEqualTo("CPU");
    }

    @Test
    void cudaRequestedWithoutAGpuFallsBackToCpu() {
        try (OrtMrcSession s = OrtMrcSession.open(
                tiny.bundle(), new InferenceOptions(Device.parse("cuda:0"), 1, 1, GraphOptimization.BASIC))) {
            assertThat(s.provider()).isEqualTo("CPU");
            assertThat(s.device()).as("where it runs, which picks its batching").isEqualTo(Device.CPU);
            assertThat(s.run(tiny.sentenceWindows().subList(0, 1))).hasSize(1);
        }
    }
}
