package dev.bionerstream.inference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bionerstream.model.ModelBundle;
import java.nio.file.Path;

/**
 * A test bundle of model-export's ({@code bioner_mrc.tiny_bundle}) opened in ONNX Runtime on one CPU
 * thread, with the fixtures (inputs and PyTorch's logits) model-export wrote beside it.
 */
record FixtureBundle(ModelBundle bundle, OrtMrcSession session, JsonNode fixtures) implements AutoCloseable {
    /** @param name a folder under the test resources' {@code bundles/} */
    static FixtureBundle open(String name) throws Exception {
        Path dir = Path.of(FixtureBundle.class.getResource("/bundles/" + name).toURI());
        ModelBundle bundle = ModelBundle.load(dir);
        return new FixtureBundle(
                bundle,
                OrtMrcSession.open(bundle, InferenceOptions.cpu(1)),
                new ObjectMapper().readTree(dir.resolve("fixtures.json").toFile()));
    }

    @Override
    public void close() {
        session.close();
    }
}
