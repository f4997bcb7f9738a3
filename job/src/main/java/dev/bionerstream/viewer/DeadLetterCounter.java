package dev.bionerstream.viewer;

import java.time.Instant;

/**
 * Dead letters the index cannot show, such as the records the job refused on its Kafka
 * dead-letter topic, which a host (the demo) reads and counts for the page's live line.
 */
@FunctionalInterface
public interface DeadLetterCounter {
    DeadLetterCounter NONE = since -> 0;

    /** Dead letters that arrived at or after {@code since}. */
    long since(Instant since);
}
