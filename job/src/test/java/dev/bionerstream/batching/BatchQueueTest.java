package dev.bionerstream.batching;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bionerstream.engine.BatchSize;
import dev.bionerstream.features.MrcWindow;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class BatchQueueTest {
    static final long MS = 1_000_000L;

    static MrcWindow window(int length) {
        return new MrcWindow(0, 0, length - 3, 0, length - 3, new long[length], new long[length]);
    }

    static BatchRequest request(long enqueuedNanos, int... lengths) {
        return new BatchRequest(
                IntStream.of(lengths).mapToObj(BatchQueueTest::window).toList(), enqueuedNanos);
    }

    static BatchRequest request(int windows) {
        return request(0, IntStream.range(0, windows).map(i -> 5).toArray());
    }

    @Test
    void closesABatchAtMaxSize() {
        BatchQueue q = new BatchQueue(new BatchSize(3), Duration.ofSeconds(10));
        q.add(request(0, 9, 5));
        assertThat(q.nanosUntilDue(0)).isPositive();
        assertThat(q.poll(0, false)).isEmpty();
        q.add(request(0, 7, 6));
        assertThat(q.nanosUntilDue(0)).isZero();
        assertThat(q.poll(0, false)).hasSize(3);
        assertThat(q.size()).isEqualTo(1);
    }

    @Test
    void closesABatchWhenTheOldestHasWaitedMaxWait() {
        BatchQueue q = new BatchQueue(new BatchSize(32), Duration.ofMillis(20));
        q.add(request(100 * MS, 8));
        q.add(request(115 * MS, 8));
        assertThat(q.nanosUntilDue(110 * MS)).isEqualTo(10 * MS);
        assertThat(q.poll(119 * MS, false)).isEmpty();
        assertThat(q.poll(120 * MS, false)).hasSize(2);
        assertThat(q.nanosUntilDue(120 * MS)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void forcedPollDrainsAtEndOfInput() {
        BatchQueue q = new BatchQueue(new BatchSize(2), Duration.ofHours(1));
        q.add(request(3));
        assertThat(q.poll(0, true)).hasSize(2);
        assertThat(q.poll(0, true)).hasSize(1);
        assertThat(q.poll(0, true)).isEmpty();
    }

    @Test
    void aHugeRequestTakesAtMostHalfABatchWhileOthersWait() {
        BatchQueue q = new BatchQueue(new BatchSize(8), Duration.ZERO);
        BatchRequest huge = request(1000);
        BatchRequest small = request(3);
        BatchRequest later = request(6);
        q.add(huge);
        q.add(small);
        q.add(later);
        for (int batch = 0; batch < 2; batch++) {
            assertThat(q.poll(0, false))
                    .hasSize(8)
                    .filteredOn(p -> p.request() == huge)
                    .hasSize(4);
        }
        assertThat(q.size()).isEqualTo(1000 - 8 + 1);
        q.poll(0, false); // the last of "later", and the rest of the batch from huge
        assertThat(q.poll(0, false))
                .extracting(PendingWindow::request)
                .containsOnly(huge)
                .hasSize(8); // alone: the whole batch
    }

    @Test
    void aBatchGathersWindowsOfSimilarLengthAroundTheOldest() {
        BatchQueue q = new BatchQueue(new BatchSize(4), Duration.ZERO);
        BatchRequest oldest = request(0, 40);
        q.add(oldest);
        q.add(request(1, 9, 200, 41, 8, 38, 120));
        q.add(request(2, 39, 7, 250));
        List<PendingWindow> first = q.poll(0, false);
        assertThat(first).extracting(p -> p.window().length()).containsExactlyInAnyOrder(40, 41, 39, 38);
        assertThat(first).extracting(PendingWindow::request).contains(oldest);
        // now the second request is the oldest: its longest, 200, anchors the batch, and it takes half (200, 120),
        // so 250 and 7 of the third come before its 9 and 8
        assertThat(q.poll(0, false)).extracting(p -> p.window().length()).containsExactlyInAnyOrder(200, 250, 120, 7);
    }

    @Test
    void aDueQueueIsSharedAmongTheFreeRunnersAndWhatWasQueuedThenStaysDue() {
        BatchQueue q = new BatchQueue(new BatchSize(4), Duration.ofHours(1));
        BatchRequest first = request(0, 5, 5, 5, 5, 5, 5);
        q.add(first);
        q.add(request(1, 9, 9));
        assertThat(q.poll(0, false, 3)).as("8 windows, 3 free runners").hasSize(3);
        q.add(request(2, 9, 9)); // newer: the next batch takes its half batch of the first, then the 9s
        assertThat(q.poll(0, false, 1))
                .hasSize(4)
                .filteredOn(p -> p.request() == first)
                .hasSize(2);
        assertThat(q.size()).isEqualTo(3);
        assertThat(q.nanosUntilDue(0))
                .as("3 of 4 windows, but the first was queued when the queue was shared: due")
                .isZero();
        assertThat(q.poll(0, false, 1)).hasSize(3);
        q.add(request(3, 5));
        assertThat(q.nanosUntilDue(0)).as("a window queued later waits as ever").isPositive();
    }

    @Test
    void aQueueOfABatchPerFreeRunnerOrMoreGivesFullBatches() {
        BatchQueue q = new BatchQueue(new BatchSize(4), Duration.ofHours(1));
        q.add(request(9));
        assertThat(q.poll(0, false, 2)).hasSize(4);
        assertThat(q.poll(0, false, 1)).hasSize(4);
        q.add(request(5));
        assertThat(q.poll(0, false, 3)).as("6 windows, 3 free runners: 2 each").hasSize(2);
    }

    @Test
    void withALengthRatioABatchHoldsOnlyWindowsNearItsLongestAndTheRestIsDueAtOnce() {
        BatchQueue q = new BatchQueue(new BatchSize(8), Duration.ofHours(1), BatchPolicy.SIMILAR_LENGTHS);
        q.add(request(0, 40, 100, 90, 45, 82, 38, 79));
        q.add(request(1, 95, 50, 36));
        assertThat(q.poll(0, true))
                .as("the oldest's longest, 100, then the nearest down to 80: 79 would pad 21%")
                .extracting(p -> p.window().length())
                .containsExactlyInAnyOrder(100, 95, 90, 82);
        assertThat(q.nanosUntilDue(0))
                .as("6 of 8 windows, yet what the batch left of a forced queue")
                .isZero();
        assertThat(q.poll(0, false)).extracting(p -> p.window().length()).containsExactlyInAnyOrder(79);
        assertThat(q.poll(0, false)).extracting(p -> p.window().length()).containsExactlyInAnyOrder(45, 50, 40);
        assertThat(q.poll(0, false)).extracting(p -> p.window().length()).containsExactlyInAnyOrder(38, 36);
        assertThat(q.size()).isZero();
    }

    @Test
    void aWithdrawnRequestLeavesTheQueue() {
        BatchQueue q = new BatchQueue(new BatchSize(4), Duration.ofHours(1));
        BatchRequest gone = request(10);
        BatchRequest kept = request(2);
        q.add(gone);
        q.add(kept);
        assertThat(q.poll(0, false)).filteredOn(p -> p.request() == gone).hasSize(2); // 2 of gone, 2 of kept
        q.withdraw(gone);
        assertThat(q.size()).isZero();
        q.add(request(1));
        assertThat(q.poll(0, true)).singleElement().satisfies(p -> assertThat(p.request())
                .isNotIn(gone, kept));
    }

    @Test
    void rejectsNonsenseSettings() {
        assertThatThrownBy(() -> new BatchSize(0)).hasMessage("a model batch holds at least one window, got 0");
        assertThatThrownBy(() -> new BatchQueue(new BatchSize(1), Duration.ofMillis(-1)))
                .hasMessageContaining("max wait");
    }
}
