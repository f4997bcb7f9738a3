package dev.bionerstream.sink.opensearch;

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
 * Creates the index with the repository's mapping when it does not exist. Several sink subtasks may
 * race to create it; "already exists" counts as success.
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

    /** Returns true when this call created the index. */
    static boolean ensureIndex(OpenSearchClient client, String index) throws IOException {
        if (client.indices().exists(r -> r.index(index)).value()) {
            return false;
        }
        try (Response response = client.generic()
                .execute(Requests.builder()
                        .method("PUT")
                        .endpoint("/" + index)
                        .json(mappingJson())
                        .build())) {
            String body = response.getBody().map(IndexSetup::read).orElse("");
            if (response.getStatus() == 200) {
                LOG.info("Created OpenSearch index {} with the mapping in {}", index, MAPPING_RESOURCE);
                return true;
            }
            if (response.getStatus() == 400 && body.contains("resource_already_exists_exception")) {
                return false;
            }
            throw new IOException("Could not create OpenSearch index " + index + " (HTTP " + response.getStatus()
                    + "): " + body + ". Create it yourself with the body of " + MAPPING_RESOURCE
                    + " and set opensearch.create-index=false, or give the job's user the create_index permission.");
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("Could not create OpenSearch index " + index, e);
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
