package dev.bionerstream.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.PathType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The JSON Schemas users validate {@code kafka.output-format json} values against
 * ({@code schemas/json/} of the repository), applied to values the job wrote.
 */
public final class OutputSchemas {
    /** The repository's folder, from the job module where Maven runs the tests. */
    public static final Path DIR = Path.of("..", "schemas", "json");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(
            SpecificationVersion.DRAFT_2020_12,
            b -> b.schemaRegistryConfig(SchemaRegistryConfig.builder()
                    .locale(Locale.ENGLISH)
                    .pathType(PathType.JSON_PATH)
                    .build()));

    private OutputSchemas() {}

    public static Path file(String record) {
        return DIR.resolve(record + ".schema.json");
    }

    /** The schema of the record named {@code record} as a JSON tree (to compare with its .avsc). */
    public static JsonNode tree(String record) {
        try {
            return JSON.readTree(file(record).toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Asserts that {@code value} is a JSON object its record's schema accepts, and returns it. */
    public static JsonNode assertValid(String record, byte[] value) {
        JsonNode json;
        try {
            json = JSON.readTree(value);
        } catch (IOException e) {
            throw new AssertionError(record + " value is not JSON: " + new String(value), e);
        }
        List<Error> errors = errors(file(record), json);
        assertThat(errors)
                .as(record + " value " + json + " against " + file(record))
                .isEmpty();
        return json;
    }

    /** What the JSON Schema in {@code schemaFile} finds wrong with {@code json}. */
    public static List<Error> errors(Path schemaFile, JsonNode json) {
        Schema schema;
        try (InputStream in = Files.newInputStream(schemaFile)) {
            schema = REGISTRY.getSchema(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return schema.validate(json);
    }
}
