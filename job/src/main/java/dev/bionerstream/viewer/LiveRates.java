package dev.bionerstream.viewer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * The page's live line: documents, entities and dead letters of the last minute, and the
 * documents in the index. Documents and entities are those the job wrote to the index with a
 * processing time in the last minute; dead letters are the index sink's (its {@code -dlq} index)
 * plus those the host counts ({@link DeadLetterCounter}).
 */
final class LiveRates {
    static final Duration WINDOW = Duration.ofMinutes(1);

    private final IndexGateway index;
    private final DeadLetterCounter deadLetters;
    private final Clock clock;

    LiveRates(IndexGateway index, DeadLetterCounter deadLetters, Clock clock) {
        this.index = index;
        this.deadLetters = deadLetters;
        this.clock = clock;
    }

    /** {@code {documentsPerMinute, entitiesPerMinute, deadLettersPerMinute, documents}}. */
    ObjectNode now() throws IOException {
        Instant since = clock.instant().minus(WINDOW);
        JsonNode recent = index.search(IndexQueries.recent(since));
        JsonNode refused = index.searchDeadLetters(IndexQueries.deadLetters(since));
        JsonNode window = recent.path("aggregations").path("recent");
        return IndexQueries.JSON
                .createObjectNode()
                .put("documentsPerMinute", window.path("doc_count").asLong())
                .put("entitiesPerMinute", window.path("mentions").path("value").asLong())
                .put(
                        "deadLettersPerMinute",
                        refused.path("hits").path("total").path("value").asLong() + deadLetters.since(since))
                .put(
                        "documents",
                        recent.path("hits").path("total").path("value").asLong());
    }
}
