package dev.bionerstream.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.serving.TestingMrcSession;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Length-sorted batches on the caller's thread, or on several runners side by side. */
class LengthSortedBatchesTest {
    static List<MrcWindow> windows(int... lengths) {
        return IntStream.of(lengths)
                .mapToObj(n -> new MrcWindow(0, 0, n - 3, 0, n - 3, new long[n], new long[n]))
                .toList();
    }

    @Test
    void runnersRunBatchesSideBySideAndResultsKeepTheInputOrder() {
        TestingMrcSession session = new TestingMrcSession(Set.of());
        session.meet = new CyclicBarrier(2); // the two batches must be in the model at once
        List<MrcWindow> w = windows(9, 5, 8, 6);
        List<WindowResult> out =
                new LengthSortedBatches(session, new BatchSize(2), 2).run(w).join();
        assertThat(out).extracting(r -> r.logits().contextLength()).containsExactly(6, 2, 5, 3);
        assertThat(session.batches).extracting(List::size).containsExactly(2, 2);
    }

    @Test
    void aFailingBatchFailsTheRun() {
        TestingMrcSession session = new TestingMrcSession(Set.of());
        session.failNext = 1;
        assertThat(new LengthSortedBatches(session, new BatchSize(1), 2).run(windows(5, 6, 7)))
                .isCompletedExceptionally();
    }
}
