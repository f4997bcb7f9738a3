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
        BulkOutcome outcome = BulkOutcome.of(ENTRIES, response(false, ok("a"), ok("b"), ok("c")), "docs");
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
                        failed("c", 503, "unavailable_shards_exception")),
                "docs");
        assertThat(outcome.retry()).extracting(IndexRequestEntry::id).containsExactly("a", "c");
        assertThat(outcome.fatal()).isEmpty();
    }

    @Test
    void aDocumentRefusedForItsContentBecomesADeadLetterAndTheOthersGoOn() throws Exception {
        BulkOutcome outcome = BulkOutcome.of(
                ENTRIES,
                response(
                        true,
                        ok("a"),
                        failed("b", 400, "mapper_parsing_exception"),
                        failed("c", 429, "es_rejected_execution_exception")),
                "docs");
        assertThat(outcome.fatal()).isEmpty();
        assertThat(outcome.retry()).extracting(IndexRequestEntry::id).containsExactly("c");
        assertThat(outcome.deadLetters()).singleElement().satisfies(d -> {
            assertThat(d.id()).isEqualTo("b");
            assertThat(d.index()).isEqualTo("docs-dlq");
            var doc = DocumentJsonConverter.JSON.readTree(d.source());
            assertThat(doc.get("status").asInt()).isEqualTo(400);
            assertThat(doc.get("reason").asText()).isEqualTo("mapper_parsing_exception: test reason");
            assertThat(doc.get("document").asText()).isEqualTo("{\"id\":\"b\"}");
        });
    }

    @Test
    void aRefusedDeadLetterOrADeniedWriteIsFatalAndNamesTheDocument() {
        IndexRequestEntry deadLetter = new IndexRequestEntry(
                "b", "{}".getBytes(StandardCharsets.UTF_8), "docs-dlq", IndexRequestEntry.UNVERSIONED);
        BulkOutcome refused = BulkOutcome.of(
                List.of(deadLetter), response(true, failed("b", 400, "mapper_parsing_exception")), "docs");
        assertThat(refused.fatal()).hasValueSatisfying(m -> assertThat(m)
                .contains("document b")
                .contains("status 400")
                .contains("mapper_parsing_exception"));
        BulkOutcome denied = BulkOutcome.of(
                ENTRIES, response(true, ok("a"), failed("b", 403, "security_exception"), ok("c")), "docs");
        assertThat(denied.fatal()).hasValueSatisfying(m -> assertThat(m).contains("status 403"));
        assertThat(denied.deadLetters()).isEmpty();
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
    void bufferedDeletionsAndDeadLettersSurviveACheckpoint() throws Exception {
        List<IndexRequestEntry> restored = throughCheckpoint(List.of(
                entry("a"),
                IndexRequestEntry.delete("b"),
                new IndexRequestEntry("c", "{}".getBytes(StandardCharsets.UTF_8), "docs-dlq", 0)));
        assertThat(restored)
                .extracting(e -> e.id() + (e.isDelete() ? " delete" : " index " + e.index()))
                .containsExactly("a index null", "b delete", "c index docs-dlq");
    }

    @Test
    void writeVersionsRiseWithEachWriteAndSurviveACheckpoint() throws Exception {
        WriteVersions<IndexRequestEntry> versions = new WriteVersions<>((e, context) -> e);
        List<IndexRequestEntry> written = List.of(
                versions.apply(entry("a"), null),
                versions.apply(IndexRequestEntry.delete("a"), null),
                versions.apply(entry("a"), null));
        assertThat(written).extracting(IndexRequestEntry::version).isSorted().doesNotHaveDuplicates();
        assertThat(written.get(0).version()).isGreaterThan(System.currentTimeMillis() * 1000 - 60_000_000L);
        assertThat(throughCheckpoint(written))
                .extracting(IndexRequestEntry::version)
                .containsExactlyElementsOf(
                        written.stream().map(IndexRequestEntry::version).toList());
    }

    @Test
    void entriesOfAnEarlierReleasesCheckpointAreRestoredUnversioned() throws Exception {
        // Format 1 (before versioned writes): id, then length-prefixed JSON, -1 for a deletion.
        var format1 =
                new org.apache.flink.connector.base.sink.writer.AsyncSinkWriterStateSerializer<IndexRequestEntry>() {
                    @Override
                    protected void serializeRequestToStream(IndexRequestEntry e, java.io.DataOutputStream out)
                            throws java.io.IOException {
                        out.writeUTF(e.id());
                        out.writeInt(e.isDelete() ? -1 : e.source().length);
                        if (!e.isDelete()) {
                            out.write(e.source());
                        }
                    }

                    @Override
                    protected IndexRequestEntry deserializeRequestFromStream(long size, java.io.DataInputStream in) {
                        throw new UnsupportedOperationException();
                    }

                    @Override
                    public int getVersion() {
                        return 1;
                    }
                };
        byte[] earlier = format1.serialize(state(List.of(entry("a"), IndexRequestEntry.delete("b"))));
        List<IndexRequestEntry> restored = new IndexRequestEntrySerializer()
                .deserialize(1, earlier).getBufferedRequestEntries().stream()
                        .map(w -> w.getRequestEntry())
                        .toList();
        assertThat(restored)
                .extracting(e -> e.id() + (e.isDelete() ? " delete " : " index ") + e.isVersioned())
                .containsExactly("a index false", "b delete false");
        assertThat(restored.get(0).sourceAsString()).isEqualTo("{\"id\":\"a\"}");
    }

    @Test
    void aVersionedWriteOlderThanTheIndexIsSupersededNotAFailure() {
        List<IndexRequestEntry> versioned =
                List.of(entry("a").withVersion(5), entry("b").withVersion(6));
        BulkOutcome outcome = BulkOutcome.of(
                versioned, response(true, failed("a", 409, "version_conflict_engine_exception"), ok("b")), "docs");
        assertThat(outcome.retry()).isEmpty();
        assertThat(outcome.deadLetters()).isEmpty();
        assertThat(outcome.fatal()).isEmpty();
        BulkOutcome unversioned = BulkOutcome.of(
                ENTRIES,
                response(true, failed("a", 409, "version_conflict_engine_exception"), ok("b"), ok("c")),
                "docs");
        assertThat(unversioned.fatal())
                .as("a conflict the sink did not ask for")
                .isPresent();
    }

    /** The entries as the writer's state serializer writes and reads them back. */
    private static List<IndexRequestEntry> throughCheckpoint(List<IndexRequestEntry> entries) throws Exception {
        IndexRequestEntrySerializer serializer = new IndexRequestEntrySerializer();
        return serializer
                .deserialize(serializer.getVersion(), serializer.serialize(state(entries)))
                .getBufferedRequestEntries()
                .stream()
                .map(w -> w.getRequestEntry())
                .toList();
    }

    private static org.apache.flink.connector.base.sink.writer.BufferedRequestState<IndexRequestEntry> state(
            List<IndexRequestEntry> entries) {
        return new org.apache.flink.connector.base.sink.writer.BufferedRequestState<>(entries.stream()
                .map(e -> new org.apache.flink.connector.base.sink.writer.RequestEntryWrapper<>(e, e.sizeInBytes()))
                .toList());
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
