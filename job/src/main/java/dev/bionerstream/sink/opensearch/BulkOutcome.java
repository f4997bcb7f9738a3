package dev.bionerstream.sink.opensearch;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.opensearch.client.opensearch._types.ErrorCause;
import org.opensearch.client.opensearch.core.BulkResponse;
import org.opensearch.client.opensearch.core.bulk.BulkResponseItem;

/**
 * What to do after a bulk response: the entries to send again, the documents refused for their
 * content (HTTP 400), which go to the dead-letter index, and the first failure that neither can
 * fix (a missing index, a denied write, a refused dead letter), if any.
 *
 * @param retry entries rejected with a retryable status, in request order
 * @param deadLetters dead-letter-index records of the documents refused for their content
 * @param fatal description of a failure that stops the sink
 */
record BulkOutcome(List<IndexRequestEntry> retry, List<IndexRequestEntry> deadLetters, Optional<String> fatal) {
    /** A document refused with this status is refused for what it holds: another attempt fails the same way. */
    static final int CONTENT_REJECTED = 400;

    /** A versioned write older than what the index holds for its id (version conflict). */
    static final int SUPERSEDED = 409;

    /** Items of a bulk response come in request order, one per entry. */
    static BulkOutcome of(List<IndexRequestEntry> entries, BulkResponse response, String index) {
        if (!response.errors()) {
            return new BulkOutcome(List.of(), List.of(), Optional.empty());
        }
        List<BulkResponseItem> items = response.items();
        if (items.size() != entries.size()) {
            return new BulkOutcome(
                    List.of(),
                    List.of(),
                    Optional.of("bulk response has " + items.size() + " items for " + entries.size() + " operations"));
        }
        List<IndexRequestEntry> retry = new ArrayList<>();
        List<IndexRequestEntry> deadLetters = new ArrayList<>();
        String fatal = null;
        for (int i = 0; i < items.size(); i++) {
            BulkResponseItem item = items.get(i);
            if (item.error() == null) {
                continue;
            }
            IndexRequestEntry entry = entries.get(i);
            if (item.status() == SUPERSEDED && entry.isVersioned()) {
                continue; // a newer write of this id is in the index already: this one has nothing to add
            }
            if (RetryPolicy.isRetryableStatus(item.status())) {
                retry.add(entry);
            } else if (item.status() == CONTENT_REJECTED && !entry.isDelete() && !entry.isDeadLetter()) {
                deadLetters.add(DeadLetterDocument.of(entry, index, item.status(), describe(item.error())));
            } else if (fatal == null) {
                fatal = "document " + entries.get(i).id() + " rejected by index " + item.index() + " with status "
                        + item.status() + ": " + describe(item.error());
            }
        }
        return new BulkOutcome(retry, deadLetters, Optional.ofNullable(fatal));
    }

    static String describe(ErrorCause error) {
        StringBuilder s =
                new StringBuilder(String.valueOf(error.type())).append(": ").append(error.reason());
        if (error.causedBy() != null) {
            s.append(" (caused by ").append(describe(error.causedBy())).append(')');
        }
        return s.toString();
    }
}
