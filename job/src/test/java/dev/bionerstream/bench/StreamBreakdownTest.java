package dev.bionerstream.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.batching.BatchListener.Phase;
import dev.bionerstream.batching.ModelThreadTimes.Snapshot;
import dev.bionerstream.batching.ModelThreadTimes.Times;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The bench's breakdown: the model thread's phases and the tail add up to the stream's time. */
class StreamBreakdownTest {
    static final long S = 1_000_000_000L;

    static Times times(long at, long empty, long filling, long forming, long model, long delivering) {
        return new Times(
                Map.of(
                        Phase.QUEUE_EMPTY, empty,
                        Phase.FILLING, filling,
                        Phase.FORMING, forming,
                        Phase.MODEL, model,
                        Phase.DELIVERING, delivering),
                at);
    }

    /** Whitespace collapsed, so the test does not depend on column widths. */
    static List<String> lines(StreamBreakdown b) {
        return b.lines().stream().map(l -> l.trim().replaceAll("\\s+", " ")).toList();
    }

    @Test
    void splitsTheStreamsTimeIntoTheModelThreadsPhasesAndTheTail() {
        Times start = times(10 * S, S, 0, 0, 0, 0);
        // 8.5 s until the last batch ended: 8 s model, 0.2 s empty, 0.1 s each filling, forming, delivering
        Times lastModelEnd = times(185 * S / 10, 12 * S / 10, S / 10, S / 10, 8 * S, S / 10);
        // then 1.5 s until the last output: a little delivering, the rest empty
        Times end = times(20 * S, 26 * S / 10, S / 10, S / 10, 8 * S, 2 * S / 10);
        Map<String, Long> cpu = new LinkedHashMap<>();
        cpu.put(ThreadCpu.MODEL, 5 * S);
        cpu.put(ThreadCpu.NATIVE, 5 * S);
        cpu.put(ThreadCpu.BROKER, S);
        StreamBreakdown b = new StreamBreakdown(
                new Snapshot(start, start), new Snapshot(end, lastModelEnd), 7.0, 1000, 1050, cpu, 2);
        assertThat(lines(b))
                .containsExactly(
                        "where the stream's 10.00 s went (the model thread's time, measured in the job):",
                        "model (ORT session run) 8.00 s 80.0%",
                        "queue empty (first windows, upstream starved) 0.20 s 2.0%",
                        "waiting for a batch to fill (batch.max-wait) 0.10 s 1.0%",
                        "forming batches 0.10 s 1.0%",
                        "handing results to the delivery thread 0.10 s 1.0%",
                        "after the last batch (sinks, checkpoint, commit) 1.50 s 15.0%",
                        "the model's 8.00 s against the bare session's 7.00 s on the same windows:",
                        "more padding than the bare run's batches +0.35 s",
                        "slower per token than bare (cores shared, load) +0.65 s",
                        "CPU this process used meanwhile: 11.0 s of 20.0 s (2 cores x 10.00 s; the rest went to other processes or idle):",
                        ThreadCpu.MODEL + " 5.00 s 25.0%",
                        ThreadCpu.NATIVE + " 5.00 s 25.0%",
                        ThreadCpu.BROKER + " 1.00 s 5.0%");
    }

    @Test
    void withoutABatchInThePeriodAllOfItIsTail() {
        Times start = times(10 * S, S, 0, 0, 0, 0);
        Times end = times(12 * S, 3 * S, 0, 0, 0, 0);
        StreamBreakdown b =
                new StreamBreakdown(new Snapshot(start, start), new Snapshot(end, start), 1.0, 10, 10, Map.of(), 2);
        assertThat(lines(b))
                .contains(
                        "model (ORT session run) 0.00 s 0.0%",
                        "after the last batch (sinks, checkpoint, commit) 2.00 s 100.0%");
    }
}
