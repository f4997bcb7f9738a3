package dev.bionerstream.model;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The default bundle copied into a directory under another name and version: a second real
 * bundle for routing tests, told apart by the model name:version its events carry.
 */
public final class RelabelledBundle {
    private RelabelledBundle() {}

    public static Path write(Path dir, String name, String version) throws IOException {
        return write(dir, name, version, null);
    }

    /**
     * The default bundle with a presence gate section in its manifest ({@code threshold},
     * {@code enabled}); its graph has no presence output, so it serves engine tests with a testing
     * runner, not ONNX Runtime.
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
        for (String file : new String[] {ModelBundle.MODEL, ModelBundle.TOKENIZER}) {
            try (InputStream in = RelabelledBundle.class.getResourceAsStream(ModelBundle.DEFAULT_RESOURCE + file)) {
                Files.copy(in, dir.resolve(file));
            }
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
