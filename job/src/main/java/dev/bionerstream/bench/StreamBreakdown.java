package dev.bionerstream.bench;

import dev.bionerstream.batching.BatchListener.Phase;
import dev.bionerstream.batching.ModelThreadTimes.Snapshot;
import dev.bionerstream.batching.ModelThreadTimes.Times;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where the streaming job's time went, as {@code bench --stream} prints it: the model thread's
 * wall time split into its phases (they add up to the stream's time), the model's time set against
 * the bare session's on the same windows, and the CPU the rest of the job used beside it. The model
 * is the bottleneck, so every second the model thread is not in the model is a second the stream
 * loses against the bare session.
 *
 * @param before the model thread's times when the first record was produced
 * @param after its times when the last output was committed
 * @param bareSeconds the bare session's time on the same windows
 * @param barePaddedTokens tokens the bare session computed (padding included)
 * @param streamPaddedTokens tokens the stream's batches computed (padding included)
 * @param cpuNanos CPU time per group of threads during the stream ({@link ThreadCpu#byGroup})
 * @param cores cores of the machine
 */
record StreamBreakdown(
        Snapshot before,
        Snapshot after,
        double bareSeconds,
        long barePaddedTokens,
        long streamPaddedTokens,
        Map<String, Long> cpuNanos,
        int cores) {

    List<String> lines() {
        Times whole = after.now().minus(before.now());
        // From the first record to the end of the last batch, and from there to the last output.
        Times body = after.lastModelEnd().atNanos() > before.now().atNanos()
                ? after.lastModelEnd().minus(before.now())
                : new Times(Map.of(), 0);
        double wall = seconds(whole.atNanos());
        double tail = wall - seconds(body.atNanos());
        List<String> out = new ArrayList<>();
        out.add(String.format("where the stream's %.2f s went (the model thread's time, measured in the job):", wall));
        out.add(row("model (ORT session run)", seconds(body.of(Phase.MODEL)), wall));
        out.add(row("queue empty (first windows, upstream starved)", seconds(body.of(Phase.QUEUE_EMPTY)), wall));
        out.add(row("waiting for a batch to fill (batch.max-wait)", seconds(body.of(Phase.FILLING)), wall));
        out.add(row("forming batches", seconds(body.of(Phase.FORMING)), wall));
        out.add(row("handing results to the delivery thread", seconds(body.of(Phase.DELIVERING)), wall));
        out.add(row("after the last batch (sinks, checkpoint, commit)", tail, wall));
        double model = seconds(body.of(Phase.MODEL));
        double atBareSpeed = barePaddedTokens == 0 ? 0 : bareSeconds * streamPaddedTokens / barePaddedTokens;
        out.add(String.format(
                "the model's %.2f s against the bare session's %.2f s on the same windows:", model, bareSeconds));
        out.add(diffRow("more padding than the bare run's batches", atBareSpeed - bareSeconds));
        out.add(diffRow("slower per token than bare (cores shared, load)", model - atBareSpeed));
        long used = cpuNanos.values().stream().mapToLong(Long::longValue).sum();
        double available = cores * wall;
        out.add(String.format(
                "CPU this process used meanwhile: %.1f s of %.1f s (%d cores x %.2f s; the rest went to other processes or idle):",
                seconds(used), available, cores, wall));
        cpuNanos.forEach((group, nanos) -> out.add(row(group, seconds(nanos), available)));
        return out;
    }

    private static String row(String label, double seconds, double of) {
        return String.format("  %-78s %8.2f s %6.1f%%", label, seconds, of == 0 ? 0 : 100 * seconds / of);
    }

    private static String diffRow(String label, double seconds) {
        return String.format("  %-78s %+8.2f s", label, seconds);
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }
}
