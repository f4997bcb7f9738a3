package dev.bionerstream.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bionerstream.features.MrcWindow;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The batcher's thread against a manual clock: batches close by size or by (manual) time. */
class MicroBatcherTest {
    final AtomicLong now = new AtomicLong();
    final TestingMrcSession session = new TestingMrcSession(Set.of());

    static List<MrcWindow> windows(int n) {
        return java.util.stream.IntStream.range(0, n).mapToObj(i -> BatchQueueTest.window(5 + i)).toList();
    }

    @Test
    void flushesBySizeWithoutWaiting() throws Exception {
        try (MicroBatcher b = new MicroBatcher(session, 4, Duration.ofHours(1), now::get)) {
            List<WindowResult> r = b.submit(windows(4)).get(10, TimeUnit.SECONDS);
            assertThat(r).hasSize(4).allSatisfy(w -> assertThat(w.batchSize()).isEqualTo(4));
            assertThat(session.batches).hasSize(1);
        }
    }

    @Test
    void flushesByMaxWaitOnlyWhenTheClockGetsThere() throws Exception {
        try (MicroBatcher b = new MicroBatcher(session, 32, Duration.ofMillis(50), now::get)) {
            CompletableFuture<List<WindowResult>> f = b.submit(windows(2));
            Thread.sleep(200); // real time passes, the manual clock does not
            assertThat(f).isNotDone();
            now.addAndGet(TimeUnit.MILLISECONDS.toNanos(50));
            List<WindowResult> r = f.get(10, TimeUnit.SECONDS);
            assertThat(r).allSatisfy(w -> {
                assertThat(w.batchSize()).isEqualTo(2);
                assertThat(w.queueNanos()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(50));
            });
        }
    }

    @Test
    void requestsFromSeveralSubtasksShareABatch() throws Exception {
        try (MicroBatcher b = new MicroBatcher(session, 6, Duration.ofHours(1), now::get)) {
            CompletableFuture<List<WindowResult>> first = CompletableFuture.supplyAsync(() -> b.submit(windows(3))).join();
            CompletableFuture<List<WindowResult>> second = CompletableFuture.supplyAsync(() -> b.submit(windows(3))).join();
            assertThat(first.get(10, TimeUnit.SECONDS)).allSatisfy(w -> assertThat(w.batchSize()).isEqualTo(6));
            assertThat(second.get(10, TimeUnit.SECONDS)).hasSize(3);
            assertThat(session.batches).hasSize(1);
        }
    }

    @Test
    void aFailedBatchFailsItsRequestsAndTheNextBatchRuns() throws Exception {
        session.failNext = 1;
        try (MicroBatcher b = new MicroBatcher(session, 2, Duration.ofHours(1), now::get)) {
            CompletableFuture<List<WindowResult>> failed = b.submit(windows(2));
            assertThatThrownBy(() -> failed.get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasMessageContaining("injected model failure");
            assertThat(b.submit(windows(2)).get(10, TimeUnit.SECONDS)).hasSize(2);
        }
    }

    @Test
    void closeRunsWhatIsQueuedAtEndOfInput() throws Exception {
        MicroBatcher b = new MicroBatcher(session, 32, Duration.ofHours(1), now::get);
        CompletableFuture<List<WindowResult>> f = b.submit(windows(3));
        b.close();
        assertThat(f.get(10, TimeUnit.SECONDS)).hasSize(3);
        assertThat(b.submit(windows(1))).isCompletedExceptionally();
    }
}
