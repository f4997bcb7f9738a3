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
            json.writerWithDefaultPrettyPrinter()
                    .writeValue(dir.resolve(ModelBundle.MANIFEST).toFile(), manifest);
        }
        return dir;
    }
}
