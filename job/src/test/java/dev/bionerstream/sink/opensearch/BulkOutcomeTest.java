package dev.bionerstream.sink.opensearch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.opensearch.client.opensearch.core.BulkResponse;
import org.opensearch.client.opensearch.core.bulk.BulkResponseItem;
import org.opensearch.client.opensearch.core.bulk.OperationType;

class BulkOutcomeTest {
    private static final List<IndexRequestEntry> ENTRIES = List.of(entry("a"), entry("b"), entry("c"));

    @Test
    void allIndexedMeansNothingToRetry() {
        BulkOutcome outcome = BulkOutcome.of(ENTRIES, response(false, ok("a"), ok("b"), ok("c")));
        assertThat(outcome.retry()).isEmpty();
        assertThat(outcome.fatal()).isEmpty();
    }

    @Test
    void rejectedForLoadAreRetriedInOrder() {
        BulkOutcome outcome = BulkOutcome.of(
                ENTRIES,
                response(
                        true,
                        failed("a", 429, "es_rejected_execution_exception"),
                        ok("b"),
                        failed("c", 503, "unavailable_shards_exception")));
        assertThat(outcome.retry()).extracting(IndexRequestEntry::id).containsExactly("a", "c");
        assertThat(outcome.fatal()).isEmpty();
    }

    @Test
    void mappingErrorIsFatalAndNamesTheDocument() {
        BulkOutcome outcome = BulkOutcome.of(
                ENTRIES,
                response(
                        true,
                        ok("a"),
                        failed("b", 400, "mapper_parsing_exception"),
                        failed("c", 429, "es_rejected_execution_exception")));
        assertThat(outcome.fatal()).hasValueSatisfying(m -> assertThat(m)
                .contains("document b")
                .contains("status 400")
                .contains("mapper_parsing_exception"));
    }

    @Test
    void backoffDoublesUpToTheCap() {
        RetryPolicy p = new RetryPolicy(5, Duration.ofMillis(100), Duration.ofSeconds(1));
        assertThat(p.backoff(1)).isEqualTo(Duration.ofMillis(100));
        assertThat(p.backoff(2)).isEqualTo(Duration.ofMillis(200));
        assertThat(p.backoff(4)).isEqualTo(Duration.ofMillis(800));
        assertThat(p.backoff(5)).isEqualTo(Duration.ofSeconds(1));
        assertThat(p.backoff(500)).isEqualTo(Duration.ofSeconds(1));
        assertThat(p.exhausted(5)).isFalse();
        assertThat(p.exhausted(6)).isTrue();
        assertThat(RetryPolicy.isRetryableStatus(429)).isTrue();
        assertThat(RetryPolicy.isRetryableStatus(502)).isTrue();
        assertThat(RetryPolicy.isRetryableStatus(400)).isFalse();
        assertThat(RetryPolicy.isRetryableStatus(403)).isFalse();
    }

    @Test
    void checkpointStateRoundTrips() throws Exception {
        List<IndexRequestEntry> restored = throughCheckpoint(ENTRIES);
        assertThat(restored).extracting(IndexRequestEntry::id).containsExactly("a", "b", "c");
        assertThat(restored.get(1).sourceAsString()).isEqualTo("{\"id\":\"b\"}");
    }

    @Test
    void aBufferedDeletionSurvivesACheckpoint() throws Exception {
        List<IndexRequestEntry> restored =
                throughCheckpoint(List.of(entry("a"), IndexRequestEntry.delete("b"), entry("c")));
        assertThat(restored)
                .extracting(e -> e.id() + (e.isDelete() ? " delete" : " index"))
                .containsExactly("a index", "b delete", "c index");
    }

    /** The entries as the writer's state serializer writes and reads them back. */
    private static List<IndexRequestEntry> throughCheckpoint(List<IndexRequestEntry> entries) throws Exception {
        IndexRequestEntrySerializer serializer = new IndexRequestEntrySerializer();
        var state =
                new org.apache.flink.connector.base.sink.writer.BufferedRequestState<IndexRequestEntry>(entries.stream()
                        .map(e -> new org.apache.flink.connector.base.sink.writer.RequestEntryWrapper<>(
                                e, e.sizeInBytes()))
                        .toList());
        return serializer
                .deserialize(serializer.getVersion(), serializer.serialize(state))
                .getBufferedRequestEntries()
                .stream()
                .map(w -> w.getRequestEntry())
                .toList();
    }

    private static IndexRequestEntry entry(String id) {
        return new IndexRequestEntry(id, ("{\"id\":\"" + id + "\"}").getBytes(StandardCharsets.UTF_8));
    }

    private static BulkResponse response(boolean errors, BulkResponseItem... items) {
        return BulkResponse.of(r -> r.errors(errors).took(3).items(List.of(items)));
    }

    private static BulkResponseItem ok(String id) {
        return BulkResponseItem.of(
                i -> i.operationType(OperationType.Index).index("docs").id(id).status(201));
    }

    private static BulkResponseItem failed(String id, int status, String type) {
        return BulkResponseItem.of(i -> i.operationType(OperationType.Index)
                .index("docs")
                .id(id)
                .status(status)
                .error(e -> e.type(type).reason("test reason")));
    }
}
