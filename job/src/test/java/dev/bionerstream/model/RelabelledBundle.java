package dev.bionerstream.model;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The default bundle's manifest and tokenizer copied into a directory under another name and version,
 * without its model: a second bundle for routing and engine tests, told apart by the model
 * name:version its events carry. Their sessions and runners are testing ones, and a bundle reads
 * {@code model.onnx} only when a session opens it; so they do not copy 67 MB, and a test that
 * opened this bundle in ONNX Runtime would fail naming the missing file.
 */
public final class RelabelledBundle {
    private RelabelledBundle() {}

    public static Path write(Path dir, String name, String version) throws IOException {
        return write(dir, name, version, null);
    }

    /**
     * The default bundle with a presence gate section in its manifest ({@code threshold},
     * {@code enabled}), for engine tests with a testing runner.
     */
    public static Path withGate(Path dir, double threshold, boolean enabled) throws IOException {
        ObjectNode gate = new ObjectMapper()
                .createObjectNode()
                .put("output", "presence_logits")
                .put("threshold", threshold)
                .put("enabled", enabled);
        return write(dir, "bioner-mrc-gated-test", "0.1.0", gate);
    }

    private static Path write(Path dir, String name, String version, ObjectNode gate) throws IOException {
        Files.createDirectories(dir);
        try (InputStream in =
                RelabelledBundle.class.getResourceAsStream(ModelBundle.DEFAULT_RESOURCE + ModelBundle.TOKENIZER)) {
            Files.copy(in, dir.resolve(ModelBundle.TOKENIZER));
        }
        ObjectMapper json = new ObjectMapper();
        try (InputStream in =
                RelabelledBundle.class.getResourceAsStream(ModelBundle.DEFAULT_RESOURCE + ModelBundle.MANIFEST)) {
            ObjectNode manifest = (ObjectNode) json.readTree(in);
            manifest.put("name", name).put("version", version);
            if (gate != null) {
                manifest.set("gate", gate);
            }
            json.writerWithDefaultPrettyPrinter()
                    .writeValue(dir.resolve(ModelBundle.MANIFEST).toFile(), manifest);
        }
        return dir;
    }
}
