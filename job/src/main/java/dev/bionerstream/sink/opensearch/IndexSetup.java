package dev.bionerstream.sink.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch.generic.Body;
import org.opensearch.client.opensearch.generic.Requests;
import org.opensearch.client.opensearch.generic.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the index with the repository's mapping when it does not exist, and adds the mapping's
 * newer fields to one that does. Several sink subtasks may race to create it; "already exists"
 * counts as success.
 */
public final class IndexSetup {
    /** Classpath resource: the body of {@code PUT /<index>} (settings and mappings). */
    public static final String MAPPING_RESOURCE = "opensearch/documents-mapping.json";

    private static final Logger LOG = LoggerFactory.getLogger(IndexSetup.class);

    private IndexSetup() {}

    public static String mappingJson() {
        try (InputStream in = IndexSetup.class.getClassLoader().getResourceAsStream(MAPPING_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(MAPPING_RESOURCE + " is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Creates the index, or brings an existing one's mapping up to the jar's: an index an earlier
     * release created lacks the fields added since (the linked concepts), and its strict mapping
     * would refuse every document that has them. Adding fields is the one change OpenSearch makes to
     * a live mapping, so this never touches what is indexed. Returns true when this call created the
     * index.
     */
    static boolean ensureIndex(OpenSearchClient client, String index) throws IOException {
        if (client.indices().exists(r -> r.index(index)).value()) {
            putMappings(client, index);
            return false;
        }
        try (Response response = send(client, "PUT", "/" + index, mappingJson())) {
            String body = response.getBody().map(IndexSetup::read).orElse("");
            if (response.getStatus() == 200) {
                LOG.info("Created OpenSearch index {} with the mapping in {}", index, MAPPING_RESOURCE);
                return true;
            }
            if (response.getStatus() == 400 && body.contains("resource_already_exists_exception")) {
                putMappings(client, index);
                return false;
            }
            throw new IOException("Could not create OpenSearch index " + index + " (HTTP " + response.getStatus()
                    + "): " + body + ". Create it yourself with the body of " + MAPPING_RESOURCE
                    + " and set " + OpenSearchSinkOptions.CREATE_INDEX.key()
                    + "=false, or give the job's user the create_index permission.");
        }
    }

    /**
     * Adds the jar's fields the index lacks. An index that has them all is left alone: a mapping
     * update is a cluster metadata write, which a read-only block (a full disk) refuses and which
     * needs a permission the job otherwise does not use.
     */
    private static void putMappings(OpenSearchClient client, String index) throws IOException {
        JsonNode mappings = DocumentJsonConverter.JSON.readTree(mappingJson()).get("mappings");
        try (Response current = send(client, "GET", "/" + index + "/_mapping", null)) {
            if (current.getStatus() == 200) {
                JsonNode existing = DocumentJsonConverter.JSON
                        .readTree(current.getBody().map(IndexSetup::read).orElse("{}"))
                        .path(index)
                        .path("mappings");
                if (existing.path("_meta").equals(mappings.path("_meta")) && hasAllFields(existing, mappings)) {
                    return;
                }
            }
        }
        try (Response response = send(client, "PUT", "/" + index + "/_mapping", mappings.toString())) {
            if (response.getStatus() != 200) {
                throw new IOException("Could not add the fields of " + MAPPING_RESOURCE + " to the mapping of index "
                        + index + " (HTTP " + response.getStatus() + "): "
                        + response.getBody().map(IndexSetup::read).orElse("")
                        + ". Add them yourself (PUT /" + index + "/_mapping with its \"mappings\") and set "
                        + OpenSearchSinkOptions.CREATE_INDEX.key()
                        + "=false, or give the job's user the indices:admin/mapping/put "
                        + "permission on the index.");
            }
        }
    }

    /** Every field of {@code wanted} (its properties, nested ones too) is in {@code existing}. */
    static boolean hasAllFields(JsonNode existing, JsonNode wanted) {
        JsonNode have = existing.path("properties");
        for (var field : wanted.path("properties").properties()) {
            if (!have.has(field.getKey()) || !hasAllFields(have.get(field.getKey()), field.getValue())) {
                return false;
            }
        }
        return true;
    }

    private static Response send(OpenSearchClient client, String method, String endpoint, String json)
            throws IOException {
        try {
            var request = Requests.builder().method(method).endpoint(endpoint);
            return client.generic().execute((json == null ? request : request.json(json)).build());
        } catch (RuntimeException e) {
            throw new IOException(method + " " + endpoint + ": " + e.getMessage(), e);
        }
    }

    private static String read(Body body) {
        try (body) {
            return body.bodyAsString();
        } catch (Exception e) {
            return "(unreadable body: " + e + ")";
        }
    }
}
