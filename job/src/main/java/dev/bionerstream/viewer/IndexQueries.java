package dev.bionerstream.viewer;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.List;

/**
 * The OpenSearch request bodies behind the page, over the fields of {@code
 * opensearch/documents-mapping.json}: a search with its facets, and the live counts.
 */
final class IndexQueries {
    static final ObjectMapper JSON = new ObjectMapper();
    /** Entity types shown beside the results, with their document counts. */
    static final int TYPE_FACETS = 20;
    /** Most frequent entities shown beside the results, with their mention counts. */
    static final int ENTITY_FACETS = 15;
    /** Most frequent concepts of each type shown beside the results, with their names and mention counts. */
    static final int CONCEPT_FACETS = 5;

    private IndexQueries() {}

    /**
     * Documents matching every given part of {@code q}, best first for free text and newest first
     * otherwise, with the documents per entity type, the most frequent mentions and the most
     * frequent concepts of each type among them. {@code concepts}: the ids {@code q.entity()} stands
     * for ({@link ConceptNames}); a mention of one of them matches as one of that text does.
     */
    static ObjectNode search(SearchQuery q, List<String> concepts) {
        ObjectNode body = JSON.createObjectNode().put("from", q.from()).put("size", q.size());
        body.put("track_total_hits", true);
        ObjectNode bool = body.putObject("query").putObject("bool");
        ArrayNode filter = bool.putArray("filter");
        if (q.text() != null) {
            // simple_query_string never fails on user syntax: a stray quote or bracket is taken as text.
            ObjectNode sqs = bool.putArray("must").addObject().putObject("simple_query_string");
            sqs.put("query", q.text()).put("default_operator", "and");
            sqs.putArray("fields").add("title").add("abstract");
        }
        if (q.entity() != null) {
            ObjectNode nested = filter.addObject().putObject("nested").put("path", "entities");
            ObjectNode mention = nested.putObject("query").putObject("bool");
            if (q.type() != null) {
                term(mention.putArray("filter"), "entities.type", q.type());
            }
            ArrayNode either = mention.putArray("should");
            term(either, "entities.text", q.entity());
            if (!concepts.isEmpty()) {
                ArrayNode ids = either.addObject().putObject("terms").putArray("entities.conceptId");
                concepts.forEach(ids::add);
            }
            mention.put("minimum_should_match", 1);
        } else if (q.type() != null) {
            term(filter, "entityTypes", q.type());
        }
        if (q.documentId() != null) {
            term(filter, "documentId", q.documentId());
        }
        if (q.year() != null) {
            // Dates stored as yyyy, yyyy-MM or yyyy-MM-dd all fall in [Jan 1, next Jan 1).
            filter.addObject()
                    .putObject("range")
                    .putObject("publicationDate")
                    .put("gte", q.year() + "-01-01")
                    .put("lt", (q.year() + 1) + "-01-01");
        }
        ArrayNode sort = body.putArray("sort");
        if (q.text() != null) {
            sort.add("_score");
        }
        sort.addObject().put("processingTime", "desc");
        sort.addObject().put("eventId", "asc");
        ObjectNode aggs = body.putObject("aggs");
        terms(aggs.putObject("types"), "entityTypes", TYPE_FACETS);
        ObjectNode top = terms(mentionAggs(aggs, "mentions").putObject("top"), "entities.text", ENTITY_FACETS);
        terms(top.putObject("aggs").putObject("type"), "entities.type", 1);
        ObjectNode byType = terms(mentionAggs(aggs, "concepts").putObject("types"), "entities.type", TYPE_FACETS);
        ObjectNode concept = terms(byType.putObject("aggs").putObject("top"), "entities.conceptId", CONCEPT_FACETS);
        terms(concept.putObject("aggs").putObject("name"), "entities.conceptName", 1);
        return body;
    }

    /** All documents, with those the job wrote since {@code since} and the mentions they hold. */
    static ObjectNode recent(Instant since) {
        ObjectNode body = JSON.createObjectNode().put("size", 0).put("track_total_hits", true);
        ObjectNode recent = body.putObject("aggs").putObject("recent");
        since(recent.putObject("filter"), "processingTime", since);
        recent.putObject("aggs").putObject("mentions").putObject("sum").put("field", "mentionCount");
        return body;
    }

    /** The dead letters of the index sink ({@code <index>-dlq}) refused since {@code since}. */
    static ObjectNode deadLetters(Instant since) {
        ObjectNode body = JSON.createObjectNode().put("size", 0).put("track_total_hits", true);
        since(body.putObject("query"), "failedAt", since);
        return body;
    }

    private static void since(ObjectNode query, String field, Instant since) {
        query.putObject("range").putObject(field).put("gte", since.toString());
    }

    /** {@code agg} as a terms aggregation over {@code field}; returned for its sub-aggregations. */
    private static ObjectNode terms(ObjectNode agg, String field, int size) {
        agg.putObject("terms").put("field", field).put("size", size);
        return agg;
    }

    /** The sub-aggregations of a nested aggregation {@code name} over the mentions. */
    private static ObjectNode mentionAggs(ObjectNode aggs, String name) {
        ObjectNode nested = aggs.putObject(name);
        nested.putObject("nested").put("path", "entities");
        return nested.putObject("aggs");
    }

    private static void term(ArrayNode filter, String field, String value) {
        filter.addObject().putObject("term").put(field, value);
    }
}
