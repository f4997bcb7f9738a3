package dev.bionerstream.inference;

import org.junit.jupiter.api.Test;

/**
 * The default bundle in ONNX Runtime gives PyTorch's logits on the fixtures model-export wrote beside
 * it: the shipped 67 MB model itself, so an integration test ({@code OrtMrcSessionTest} checks the
 * session on a tiny bundle in the unit tier).
 */
class OrtMrcSessionITCase {
    @Test
    void theDefaultBundlesLogitsEqualTorchOneByOneAndPaddedInABatch() throws Exception {
        try (FixtureBundle real = FixtureBundle.openDefault()) {
            real.assertLogitsOfTorchAloneAndPaddedInABatch(1e-4);
        }
    }
}
