package dev.bionerstream.viewer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * Shapes OpenSearch's answers into what the page draws: documents with their text and mentions
 * (offsets as indexed, so the highlights are the job's, not re-found in the text), the total, and
 * the facets.
 */
final class PageDocuments {
    /** The fields of an index document the page shows; the per-type keyword arrays stay behind. */
    private static final List<String> SHOWN = List.of(
            "eventId",
            "documentId",
            "title",
            "abstract",
            "journal",
            "publicationDate",
            "publicationDateText",
            "source",
            "modelName",
            "modelVersion",
            "processingTime",
            "entities");

    private PageDocuments() {}

    /**
     * {@code {total, documents: [...], facets: {types: [{type, count}], entities: [{text, type, count}],
     * concepts: [{type, id, name, count}]}}}.
     */
    static ObjectNode results(JsonNode response) {
        ObjectNode page = IndexQueries.JSON.createObjectNode();
        page.put("total", response.path("hits").path("total").path("value").asLong());
        ArrayNode documents = page.putArray("documents");
        for (JsonNode hit : response.path("hits").path("hits")) {
            ObjectNode doc = document(hit.path("_source"));
            if (hit.hasNonNull("_score")) {
                doc.put("relevance", hit.get("_score").asDouble());
            }
            documents.add(doc);
        }
        ObjectNode facets = page.putObject("facets");
        ArrayNode types = facets.putArray("types");
        for (JsonNode bucket : response.path("aggregations").path("types").path("buckets")) {
            types.addObject()
                    .put("type", bucket.path("key").asText())
                    .put("count", bucket.path("doc_count").asLong());
        }
        ArrayNode entities = facets.putArray("entities");
        for (JsonNode bucket :
                response.path("aggregations").path("mentions").path("top").path("buckets")) {
            entities.addObject()
                    .put("text", bucket.path("key").asText())
                    .put(
                            "type",
                            bucket.path("type")
                                    .path("buckets")
                                    .path(0)
                                    .path("key")
                                    .asText())
                    .put("count", bucket.path("doc_count").asLong());
        }
        ArrayNode concepts = facets.putArray("concepts");
        for (JsonNode type :
                response.path("aggregations").path("concepts").path("types").path("buckets")) {
            for (JsonNode bucket : type.path("top").path("buckets")) {
                concepts.addObject()
                        .put("type", type.path("key").asText())
                        .put("id", bucket.path("key").asText())
                        .put(
                                "name",
                                bucket.path("name")
                                        .path("buckets")
                                        .path(0)
                                        .path("key")
                                        .asText(""))
                        .put("count", bucket.path("doc_count").asLong());
            }
        }
        return page;
    }

    /**
     * The page's view of one indexed document ({@code _source}); a linked mention also gets the page
     * of each of its concepts at its source ({@code conceptUrl}, {@link ConceptPages}).
     */
    static ObjectNode document(JsonNode source) {
        ObjectNode doc = IndexQueries.JSON.createObjectNode();
        for (String field : SHOWN) {
            if (source.has(field)) {
                doc.set(field, source.get(field));
            }
        }
        if (!doc.has("entities")) {
            doc.putArray("entities");
        }
        for (JsonNode mention : doc.get("entities")) {
            ArrayNode urls = IndexQueries.JSON.createArrayNode();
            for (JsonNode id : mention.path("conceptId")) {
                urls.add(ConceptPages.of(mention.path("type").asText(), id.asText()));
            }
            if (!urls.isEmpty()) {
                ((ObjectNode) mention).set("conceptUrl", urls);
            }
        }
        return doc;
    }
}
