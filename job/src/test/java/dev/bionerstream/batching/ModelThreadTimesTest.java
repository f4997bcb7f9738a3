package dev.bionerstream.batching;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.batching.BatchListener.Phase;
import dev.bionerstream.batching.ModelThreadTimes.Snapshot;
import dev.bionerstream.batching.ModelThreadTimes.Times;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The model thread's phases against a manual clock. */
class ModelThreadTimesTest {
    final AtomicLong now = new AtomicLong(1_000);
    final ModelThreadTimes times = new ModelThreadTimes(now::get, 1);

    void after(long nanos, Phase next) {
        now.addAndGet(nanos);
        times.phase(0, next);
    }

    @Test
    void phasesAddUpToThePeriodAndTheCurrentPhaseCountsUpToTheSnapshot() {
        Snapshot start = times.snapshot();
        after(10, Phase.FILLING); // 10 empty
        after(5, Phase.FORMING); // 5 filling
        after(2, Phase.MODEL); // 2 forming
        after(100, Phase.DELIVERING); // 100 model
        after(3, Phase.QUEUE_EMPTY); // 3 delivering
        now.addAndGet(7); // 7 more empty, not entered yet
        Times d = times.snapshot().now().minus(start.now());
        assertThat(d.of(Phase.QUEUE_EMPTY)).isEqualTo(17);
        assertThat(d.of(Phase.FILLING)).isEqualTo(5);
        assertThat(d.of(Phase.FORMING)).isEqualTo(2);
        assertThat(d.of(Phase.MODEL)).isEqualTo(100);
        assertThat(d.of(Phase.DELIVERING)).isEqualTo(3);
        assertThat(d.atNanos())
                .isEqualTo(127)
                .isEqualTo(
                        d.nanos().values().stream().mapToLong(Long::longValue).sum());
    }

    @Test
    void remembersTheTotalsWhenTheModelLastFinished() {
        after(10, Phase.MODEL);
        after(50, Phase.DELIVERING);
        after(1, Phase.QUEUE_EMPTY);
        now.addAndGet(20);
        Snapshot s = times.snapshot();
        assertThat(s.lastModelEnd().atNanos()).isEqualTo(1_060);
        assertThat(s.lastModelEnd().of(Phase.MODEL)).isEqualTo(50);
        assertThat(s.now().minus(s.lastModelEnd()).atNanos()).isEqualTo(21); // delivering, then empty
    }

    @Test
    void whileTheModelRunsItsLastEndIsNow() {
        after(10, Phase.MODEL);
        now.addAndGet(30);
        Snapshot s = times.snapshot();
        assertThat(s.lastModelEnd()).isEqualTo(s.now());
        assertThat(s.now().of(Phase.MODEL)).isEqualTo(30);
    }

    @Test
    void enteringTheCurrentPhaseAgainChangesNothing() {
        after(10, Phase.QUEUE_EMPTY);
        after(10, Phase.QUEUE_EMPTY);
        assertThat(times.snapshot().now().of(Phase.QUEUE_EMPTY)).isEqualTo(20);
    }

    @Test
    void twoRunnersReportTheMeanOfTheirPhases() {
        ModelThreadTimes two = new ModelThreadTimes(now::get, 2);
        Snapshot start = two.snapshot();
        two.phase(0, Phase.MODEL);
        now.addAndGet(100);
        two.phase(1, Phase.MODEL); // runner 1 waited 100 with an empty queue
        now.addAndGet(60);
        two.phase(0, Phase.DELIVERING); // runner 0: 160 in the model
        now.addAndGet(40);
        Snapshot end = two.snapshot(); // runner 1 still in the model: 100
        Times d = end.now().minus(start.now());
        assertThat(d.of(Phase.MODEL)).isEqualTo((160 + 100) / 2);
        assertThat(d.of(Phase.QUEUE_EMPTY)).isEqualTo(100 / 2);
        assertThat(d.of(Phase.DELIVERING)).isEqualTo(40 / 2);
        assertThat(d.atNanos()).isEqualTo(200);
        // the last model end: runner 0's at 160, runner 1's is now (it is in the model)
        assertThat(end.lastModelEnd().atNanos() - start.now().atNanos()).isEqualTo((160 + 200) / 2);
    }
}
