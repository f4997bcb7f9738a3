package dev.bionerstream.sink.opensearch;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.opensearch.client.opensearch._types.ErrorCause;
import org.opensearch.client.opensearch.core.BulkResponse;
import org.opensearch.client.opensearch.core.bulk.BulkResponseItem;

/**
 * What to do after a bulk response: the entries to send again, and the first failure that no retry
 * can fix (a mapping error, a missing index, a denied write), if any.
 *
 * @param retry entries rejected with a retryable status, in request order
 * @param fatal description of a non-retryable item failure
 */
record BulkOutcome(List<IndexRequestEntry> retry, Optional<String> fatal) {

    /** Items of a bulk response come in request order, one per entry. */
    static BulkOutcome of(List<IndexRequestEntry> entries, BulkResponse response) {
        if (!response.errors()) {
            return new BulkOutcome(List.of(), Optional.empty());
        }
        List<BulkResponseItem> items = response.items();
        if (items.size() != entries.size()) {
            return new BulkOutcome(
                    List.of(),
                    Optional.of("bulk response has " + items.size() + " items for " + entries.size() + " operations"));
        }
        List<IndexRequestEntry> retry = new ArrayList<>();
        String fatal = null;
        for (int i = 0; i < items.size(); i++) {
            BulkResponseItem item = items.get(i);
            if (item.error() == null) {
                continue;
            }
            if (RetryPolicy.isRetryableStatus(item.status())) {
                retry.add(entries.get(i));
            } else if (fatal == null) {
                fatal = "document " + entries.get(i).id() + " rejected by index " + item.index() + " with status "
                        + item.status() + ": " + describe(item.error());
            }
        }
        return new BulkOutcome(retry, Optional.ofNullable(fatal));
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
