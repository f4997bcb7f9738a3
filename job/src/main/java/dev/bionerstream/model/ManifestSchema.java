package dev.bionerstream.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.PathType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * {@code bundle.json}'s JSON Schema ({@code schemas/bundle.schema.json} in the repository, packaged
 * at {@link #RESOURCE}), checked before the manifest is read into records: a wrong type or a missing
 * field is then reported by its path instead of surfacing later as a default value or an NPE.
 */
final class ManifestSchema {
    static final String RESOURCE = "/schemas/bundle.schema.json";

    private static final Schema SCHEMA = load();

    private ManifestSchema() {}

    /** Every violation in one message, each as {@code $.path: what is wrong}, after {@code where: }. */
    static void check(String where, JsonNode manifest) {
        List<Error> errors = SCHEMA.validate(manifest);
        if (!errors.isEmpty()) {
            throw new BundleException(where + ": "
                    + errors.stream().map(ManifestSchema::describe).collect(Collectors.joining("; "))
                    + " (see " + RESOURCE.substring(1) + ")");
        }
    }

    private static String describe(Error e) {
        String message = e.getMessage();
        String path = e.getInstanceLocation().toString();
        return message.startsWith(path) ? message : path + ": " + message;
    }

    private static Schema load() {
        // English messages and JSONPath locations ($.entity_types[0].name) whatever the JVM's locale
        SchemaRegistryConfig config = SchemaRegistryConfig.builder()
                .locale(Locale.ENGLISH)
                .pathType(PathType.JSON_PATH)
                .build();
        SchemaRegistry registry = SchemaRegistry.withDefaultDialect(
                SpecificationVersion.DRAFT_2020_12, b -> b.schemaRegistryConfig(config));
        try (InputStream in = ManifestSchema.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is not on the classpath: build the job with Maven, "
                        + "which copies it from the repository's schemas/");
            }
            return registry.getSchema(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
