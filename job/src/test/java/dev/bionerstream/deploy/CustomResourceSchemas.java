package dev.bionerstream.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.dialect.Dialects;
import com.networknt.schema.path.PathType;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The operators' own CRDs ({@code src/test/resources/crds/}, copied unchanged from their releases, see
 * the README there) as validators of custom resources: the {@code openAPIV3Schema} of the CRD version
 * a manifest names, with unknown fields refused. The API server prunes a field its structural schema
 * does not declare (and {@code kubectl apply} warns, or fails with {@code --validate=strict}), so a
 * mistyped field name would be lost without a word at run time; here it fails the build.
 */
final class CustomResourceSchemas {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(
            Dialects.getOpenApi30(),
            b -> b.schemaRegistryConfig(SchemaRegistryConfig.builder()
                    .locale(Locale.ENGLISH)
                    .pathType(PathType.JSON_PATH)
                    .build()));

    private final List<JsonNode> crds;

    private CustomResourceSchemas(List<JsonNode> crds) {
        this.crds = crds;
    }

    static CustomResourceSchemas load() throws IOException, URISyntaxException {
        Path dir = Path.of(Objects.requireNonNull(CustomResourceSchemas.class.getResource("/crds"))
                .toURI());
        try (Stream<Path> files = Files.list(dir)) {
            return new CustomResourceSchemas(files.filter(f -> f.toString().matches(".*\\.ya?ml"))
                    .flatMap(f -> DeployFiles.load(f).stream())
                    .map(doc -> (JsonNode) JSON.valueToTree(doc))
                    .filter(doc ->
                            "CustomResourceDefinition".equals(doc.path("kind").asText()))
                    .toList());
        }
    }

    /** The manifest's violations of its CRD's schema, or empty when no CRD here defines its kind. */
    Optional<List<Error>> validate(Map<String, Object> manifest) {
        String apiVersion = (String) manifest.get("apiVersion");
        String kind = (String) manifest.get("kind");
        int slash = apiVersion.indexOf('/');
        if (slash < 0) {
            return Optional.empty(); // the core group: no CRD
        }
        String group = apiVersion.substring(0, slash);
        String version = apiVersion.substring(slash + 1);
        return crds.stream()
                .filter(crd -> crd.at("/spec/group").asText().equals(group)
                        && crd.at("/spec/names/kind").asText().equals(kind))
                .findFirst()
                .map(crd -> schema(crd, version).validate(JSON.valueToTree(manifest)));
    }

    private static Schema schema(JsonNode crd, String version) {
        for (JsonNode v : crd.at("/spec/versions")) {
            if (v.path("name").asText().equals(version)) {
                if (!v.path("served").asBoolean()) {
                    throw new AssertionError(crd.at("/metadata/name").asText() + " no longer serves " + version);
                }
                ObjectNode root = v.at("/schema/openAPIV3Schema").deepCopy();
                // Every object has these three whatever its CRD declares; the API server checks metadata itself.
                ObjectNode properties = root.with("properties");
                properties.putIfAbsent(
                        "apiVersion", JsonNodeFactory.instance.objectNode().put("type", "string"));
                properties.putIfAbsent(
                        "kind", JsonNodeFactory.instance.objectNode().put("type", "string"));
                properties.putIfAbsent(
                        "metadata", JsonNodeFactory.instance.objectNode().put("type", "object"));
                refuseUnknownFields(root);
                return REGISTRY.getSchema(root);
            }
        }
        throw new AssertionError(crd.at("/metadata/name").asText() + " has no version " + version);
    }

    /**
     * What pruning drops, refused: an object's fields are the ones it declares, unless it keeps
     * unknown fields ({@code x-kubernetes-preserve-unknown-fields}) or is a map
     * ({@code additionalProperties}).
     */
    private static void refuseUnknownFields(JsonNode schema) {
        if (!(schema instanceof ObjectNode node)) {
            return;
        }
        if (node.has("properties")
                && !node.has("additionalProperties")
                && !node.path("x-kubernetes-preserve-unknown-fields").asBoolean()) {
            node.put("additionalProperties", false);
        }
        node.path("properties").forEach(CustomResourceSchemas::refuseUnknownFields);
        refuseUnknownFields(node.path("items"));
        refuseUnknownFields(node.path("additionalProperties"));
        refuseUnknownFields(node.path("not"));
        for (String combined : List.of("allOf", "anyOf", "oneOf")) {
            node.path(combined).forEach(CustomResourceSchemas::refuseUnknownFields);
        }
    }
}
