package dev.bionerstream.batching;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bionerstream.engine.BatchSize;
import dev.bionerstream.engine.WindowResult;
import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.serving.TestingMrcSession;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The batcher's thread against a manual clock: batches close by size or by (manual) time. */
class MicroBatcherTest {
    final AtomicLong now = new AtomicLong();
    final TestingMrcSession session = new TestingMrcSession(Set.of());

    static List<MrcWindow> windows(int n) {
        return IntStream.range(0, n).mapToObj(i -> BatchQueueTest.window(5 + i)).toList();
    }

    MicroBatcher batcher(int maxSize, Duration maxWait) {
        return new MicroBatcher(
                session, new BatchSettings(new BatchSize(maxSize), maxWait, 100, BatchPolicy.FILL), 1, now::get);
    }

    @Test
    void flushesBySizeWithoutWaiting() throws Exception {
        BatchStats stats = new BatchStats();
        try (MicroBatcher b = batcher(4, Duration.ofHours(1));
                MicroBatcher.Listening listening = b.listen(stats)) {
            List<WindowResult> r = b.run(windows(4)).get(10, TimeUnit.SECONDS);
            assertThat(r).hasSize(4).allSatisfy(w -> assertThat(w.batchSize()).isEqualTo(4));
            assertThat(session.batches).hasSize(1);
            assertThat(stats.snapshot().meanBatchSize()).isEqualTo(4.0);
            assertThat(stats.snapshot().paddingEfficiency()).isEqualTo((5 + 6 + 7 + 8) / (4.0 * 8));
        }
    }

    @Test
    void aListenerLearnsTheCurrentPhaseThenEachChangeUntilItStopsListening() throws Exception {
        List<String> heard = new CopyOnWriteArrayList<>();
        BatchListener listener = new BatchListener() {
            @Override
            public void phase(int runner, Phase next) {
                heard.add(runner + " " + next);
            }

            @Override
            public void batchRan(int[] windowLengths) {
                heard.add("ran " + Arrays.toString(windowLengths));
            }
        };
        try (MicroBatcher b = batcher(2, Duration.ofHours(1))) {
            MicroBatcher.Listening listening = b.listen(listener);
            b.run(windows(2)).get(10, TimeUnit.SECONDS);
            listening.close();
            b.run(windows(2)).get(10, TimeUnit.SECONDS);
        }
        assertThat(heard)
                .startsWith("0 QUEUE_EMPTY")
                .containsSubsequence("0 FORMING", "0 MODEL", "0 DELIVERING", "ran [6, 5]")
                .containsOnlyOnce("ran [6, 5]");
    }

    @Test
    void resultsComeBackInTheRequestsOrder() throws Exception {
        try (MicroBatcher b = batcher(3, Duration.ZERO)) {
            List<MrcWindow> w = windows(7);
            List<WindowResult> r = b.run(w).get(10, TimeUnit.SECONDS);
            assertThat(r)
                    .extracting(x -> x.logits().start().length / 2)
                    .containsExactlyElementsOf(
                            w.stream().map(MrcWindow::contextLength).toList());
        }
    }

    @Test
    void flushesByMaxWaitOnlyWhenTheClockGetsThere() throws Exception {
        try (MicroBatcher b = batcher(32, Duration.ofMillis(50))) {
            CompletableFuture<List<WindowResult>> f = b.run(windows(2));
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
        try (MicroBatcher b = batcher(6, Duration.ofHours(1))) {
            CompletableFuture<List<WindowResult>> first =
                    CompletableFuture.supplyAsync(() -> b.run(windows(3))).join();
            CompletableFuture<List<WindowResult>> second =
                    CompletableFuture.supplyAsync(() -> b.run(windows(3))).join();
            assertThat(first.get(10, TimeUnit.SECONDS))
                    .allSatisfy(w -> assertThat(w.batchSize()).isEqualTo(6));
            assertThat(second.get(10, TimeUnit.SECONDS)).hasSize(3);
            assertThat(session.batches).hasSize(1);
        }
    }

    @Test
    void aCancelledRequestsWindowsNeverReachTheModel() throws Exception {
        try (MicroBatcher b = batcher(4, Duration.ofHours(1))) {
            CompletableFuture<List<WindowResult>> cancelled = b.run(windows(3));
            cancelled.cancel(false);
            List<WindowResult> r = b.run(windows(4)).get(10, TimeUnit.SECONDS);
            assertThat(r).hasSize(4);
            assertThat(session.batches).singleElement().satisfies(batch -> assertThat(batch)
                    .hasSize(4));
        }
    }

    @Test
    void aFailedBatchFailsItsRequestsAndTheNextBatchRuns() throws Exception {
        session.failNext = 1;
        try (MicroBatcher b = batcher(2, Duration.ofHours(1))) {
            CompletableFuture<List<WindowResult>> failed = b.run(windows(2));
            assertThatThrownBy(() -> failed.get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasMessageContaining("injected model failure");
            assertThat(b.run(windows(2)).get(10, TimeUnit.SECONDS)).hasSize(2);
            assertThat(b.isBroken()).isFalse();
        }
    }

    @Test
    void anErrorBreaksTheModelLoudlyForEveryRequest() throws Exception {
        session.errorNext = true;
        try (MicroBatcher b = batcher(2, Duration.ofHours(1))) {
            CompletableFuture<List<WindowResult>> first = b.run(windows(2));
            assertThatThrownBy(() -> first.get(10, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(ModelBrokenException.class)
                    .hasMessageContaining("injected native error");
            assertThat(b.isBroken()).isTrue();
            assertThat(b.run(windows(1)))
                    .failsWithin(Duration.ofSeconds(1))
                    .withThrowableThat()
                    .withCauseInstanceOf(ModelBrokenException.class);
        }
    }

    @Test
    void aRequestOverTheWindowCapFailsAtOnceWithTheReason() {
        try (MicroBatcher b = new MicroBatcher(
                session, new BatchSettings(new BatchSize(4), Duration.ZERO, 5, BatchPolicy.FILL), 1, now::get)) {
            assertThat(b.run(windows(6)))
                    .failsWithin(Duration.ofSeconds(1))
                    .withThrowableThat()
                    .withCauseInstanceOf(TooManyWindowsException.class)
                    .withMessageContaining("6 (sentence, type) model passes");
            assertThat(session.batches).isEmpty();
        }
    }

    @Test
    void closeRunsWhatIsQueuedAtEndOfInput() throws Exception {
        MicroBatcher b = batcher(32, Duration.ofHours(1));
        CompletableFuture<List<WindowResult>> f = b.run(windows(3));
        b.close();
        assertThat(f.get(10, TimeUnit.SECONDS)).hasSize(3);
        assertThat(b.run(windows(1))).isCompletedExceptionally();
    }

    @Test
    void anInterruptedCloseStillClosesTheSessionOnlyAfterTheRunningBatch() throws Exception {
        session.delayMillis = 1500;
        MicroBatcher b = batcher(2, Duration.ofHours(1));
        CompletableFuture<List<WindowResult>> f = b.run(windows(2));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (session.batches.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        AtomicInteger runningAtSessionClose = new AtomicInteger(-1);
        Thread.currentThread().interrupt(); // as Flink interrupts a cancelled task's thread
        b.close(() -> runningAtSessionClose.set(session.running.get()));
        assertThat(Thread.interrupted())
                .as("the interrupt is kept for the caller")
                .isTrue();
        assertThat(runningAtSessionClose)
                .as("batches in the model when the session closed")
                .hasValue(0);
        assertThat(f.get(10, TimeUnit.SECONDS)).hasSize(2);
    }

    @Test
    void aSlowCallbackDoesNotHoldUpTheModel() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        session.delayMillis = 200; // the first batch still runs when its callback is registered
        try (MicroBatcher b = batcher(2, Duration.ofHours(1))) {
            CompletableFuture<String> slow = b.run(windows(2)).thenApply(r -> {
                String thread = Thread.currentThread().getName();
                if (thread.equals("bioner-batch-delivery")) {
                    try {
                        release.await(); // a caller's decoding or output that takes its time
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return thread;
            });
            CompletableFuture<List<WindowResult>> next = b.run(windows(2));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (session.batches.size() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(session.batches).hasSize(2); // the model ran on while the first callback waited
            release.countDown();
            assertThat(slow.get(10, TimeUnit.SECONDS)).isEqualTo("bioner-batch-delivery");
            assertThat(next.get(10, TimeUnit.SECONDS)).hasSize(2);
        }
    }

    @Test
    void runnersRunBatchesSideBySide() throws Exception {
        session.meet = new CyclicBarrier(2);
        try (MicroBatcher b = new MicroBatcher(
                session,
                new BatchSettings(new BatchSize(2), Duration.ofHours(1), 100, BatchPolicy.FILL),
                2,
                now::get)) {
            assertThat(b.run(windows(4)).get(2, TimeUnit.MINUTES)).hasSize(4);
            assertThat(session.batches).extracting(List::size).containsExactly(2, 2);
        }
    }

    @Test
    void aDocumentQueuedAloneRunsOnEveryFreeRunner() throws Exception {
        session.meet = new CyclicBarrier(2);
        try (MicroBatcher b = new MicroBatcher(
                session, new BatchSettings(new BatchSize(32), Duration.ZERO, 100, BatchPolicy.FILL), 2, now::get)) {
            assertThat(b.run(windows(10)).get(2, TimeUnit.MINUTES)).hasSize(10);
            assertThat(session.batches).extracting(List::size).containsExactly(5, 5);
        }
    }

    @Test
    void oneRunnerRunsOneBatchAtATime() throws Exception {
        session.meet = new CyclicBarrier(2);
        session.meetSeconds = 1;
        try (MicroBatcher b = batcher(2, Duration.ofHours(1))) {
            CompletableFuture<List<WindowResult>> first = b.run(windows(2));
            b.run(windows(2));
            assertThatThrownBy(() -> first.get(2, TimeUnit.MINUTES)).hasMessageContaining("did not run side by side");
        }
    }

    @Test
    void anErrorInOneRunnerStopsThemAll() throws Exception {
        session.errorNext = true;
        try (MicroBatcher b = new MicroBatcher(
                session,
                new BatchSettings(new BatchSize(2), Duration.ofHours(1), 100, BatchPolicy.FILL),
                3,
                now::get)) {
            assertThatThrownBy(() -> b.run(windows(2)).get(2, TimeUnit.MINUTES))
                    .hasCauseInstanceOf(ModelBrokenException.class);
            assertThat(b.run(windows(2)))
                    .failsWithin(Duration.ofSeconds(1))
                    .withThrowableThat()
                    .withCauseInstanceOf(ModelBrokenException.class);
        }
        assertThat(Thread.getAllStackTraces().keySet())
                .noneMatch(t -> t.getName().startsWith("bioner-micro-batcher-"));
    }
}
