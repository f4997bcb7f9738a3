package dev.bionerstream.job;

import dev.bionerstream.batching.BatchListener.Phase;
import dev.bionerstream.batching.BatchStats;
import dev.bionerstream.batching.MicroBatcher;
import dev.bionerstream.batching.ModelThreadTimes;
import java.time.Duration;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;

/**
 * A model's shared micro-batcher in the dashboard: how busy its model threads are and how much of
 * what they compute is padding, each over the last full minute (over the time since the subtask
 * opened, in its first minute). A model thread that is busy nearly all the time means the model is
 * the bottleneck (add GPUs or TaskManagers); one mostly idle means the job upstream of it is.
 *
 * <p>The batcher is the TaskManager's, shared by its subtasks, so each of them shows the same
 * values: aggregate them across subtasks with max or mean, not a sum.
 */
final class BatcherGauges implements AutoCloseable {
    private static final long PERIOD_NANOS = Duration.ofMinutes(1).toNanos();

    private final ModelThreadTimes times;
    private final BatchStats batches = new BatchStats();
    private final MicroBatcher.Listening listeningToTimes;
    private final MicroBatcher.Listening listeningToBatches;
    private ModelThreadTimes.Times periodStart;
    private BatchStats.Counts periodStartCounts;
    private Period last;

    private record Period(ModelThreadTimes.Times times, BatchStats.Counts counts) {
        double modelBusy() {
            return times.atNanos() == 0 ? 0 : (double) times.of(Phase.MODEL) / times.atNanos();
        }
    }

    BatcherGauges(MicroBatcher batcher, MetricGroup group) {
        times = new ModelThreadTimes(batcher.runners());
        listeningToTimes = batcher.listen(times);
        listeningToBatches = batcher.listen(batches);
        periodStart = times.snapshot().now();
        periodStartCounts = batches.snapshot();
        group.gauge(Metrics.MODEL_BUSY, (Gauge<Double>) () -> period().modelBusy());
        group.gauge(Metrics.PADDING_EFFICIENCY, (Gauge<Double>)
                () -> period().counts().paddingEfficiency());
    }

    /** The last full minute, or the time so far before the first one is complete. */
    private synchronized Period period() {
        ModelThreadTimes.Times now = times.snapshot().now();
        BatchStats.Counts counts = batches.snapshot();
        Period sinceStart = new Period(now.minus(periodStart), counts.minus(periodStartCounts));
        if (sinceStart.times().atNanos() >= PERIOD_NANOS) {
            last = sinceStart;
            periodStart = now;
            periodStartCounts = counts;
        }
        return last != null ? last : sinceStart;
    }

    @Override
    public void close() {
        listeningToTimes.close();
        listeningToBatches.close();
    }
}
