package dev.bionerstream.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.bionerstream.viewer.IndexGateway;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * Documents as a search of the index finds them. It never asks for a refresh: a document counts
 * once the index's own refresh (every second) has made it searchable, as a user's search would.
 */
final class IndexVisibility extends VisibilityWatch {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long EVERY_MILLIS = 100;

    private final IndexGateway index;

    IndexVisibility(IndexGateway index) {
        super("OpenSearch search");
        this.index = index;
    }

    @Override
    protected Collection<String> visibleNow(Set<String> pending) throws Exception {
        Thread.sleep(EVERY_MILLIS);
        if (pending.isEmpty()) {
            return List.of();
        }
        ObjectNode body = JSON.createObjectNode().put("size", pending.size());
        body.putArray("_source").add("documentId");
        pending.forEach(body.putObject("query").putObject("terms").putArray("documentId")::add);
        List<String> found = new ArrayList<>();
        for (JsonNode hit : index.search(body).path("hits").path("hits")) {
            found.add(hit.path("_source").path("documentId").asText());
        }
        return found;
    }
}
