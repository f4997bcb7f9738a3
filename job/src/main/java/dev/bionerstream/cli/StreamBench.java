package dev.bionerstream.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.bionerstream.demo.LocalPipeline;
import dev.bionerstream.engine.Segmentation;
import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.job.JobOptions;
import dev.bionerstream.serving.BatchStats;
import dev.bionerstream.serving.BundleChoice;
import dev.bionerstream.serving.ModelThreadTimes;
import dev.bionerstream.serving.SessionFactory;
import dev.bionerstream.serving.SharedModels;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The streaming job's steady state against the bare model, in one run on one machine: texts
 * through the real topology (embedded Kafka in and out, exactly-once, checkpoints), and the same
 * windows through the bare session in length-sorted batches, once before the stream and once after:
 * on a machine shared with other work the load drifts, and the mean of the two bare runs cancels a
 * steady drift that one run before or after would put into the ratio.
 *
 * <p>The job first reads every text once, unmeasured: a fresh JVM compiles Kafka's, Flink's and
 * Avro's code for minutes, a cost a long-running job pays once and the bare session, a few tight
 * loops, hardly pays at all. (With C2, the compiler still takes 2-3% of two cores on the measured
 * pass; {@code ./bioner} runs C1 only, README Throughput.)
 */
final class StreamBench {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final EngineArgs engine;
    private final List<String> texts;
    private final ThreadCpu cpu = new ThreadCpu();

    StreamBench(EngineArgs engine, List<String> texts) {
        this.engine = engine;
        this.texts = texts;
    }

    /** What the stream did between its first record produced and its last output committed. */
    private record Stream(
            double warmUpSeconds,
            double seconds,
            BatchStats.Counts batches,
            ModelThreadTimes.Snapshot timesBefore,
            ModelThreadTimes.Snapshot timesAfter,
            Map<String, Long> cpuNanos) {
        double cores() {
            return cpuNanos.values().stream().mapToLong(Long::longValue).sum() / 1e9 / seconds;
        }
    }

    int run() throws Exception {
        try (LocalModel m = engine.open()) {
            List<MrcWindow> windows = m.engine.windows(texts, Segmentation.SENTENCES);
            m.runner
                    .run(windows.subList(
                            0,
                            Math.min(windows.size(), 4 * m.config.batchMaxSize().value())))
                    .join();
            Configuration options = options();
            Bare before = bare(m, windows);
            Stream stream = stream(options);
            Bare after = bare(m, windows);
            double bareSeconds = (before.seconds() + after.seconds()) / 2;
            double jobRate = windows.size() / stream.seconds();
            double bareRate = windows.size() / bareSeconds;
            System.out.printf(
                    "%s: %d texts, %d windows, batch.max-size %d, batch.max-wait %s, async.capacity %d, runners %d, provider %s%n",
                    m.engine.manifest().id(),
                    texts.size(),
                    windows.size(),
                    m.config.batchMaxSize().value(),
                    m.config.batchMaxWait(),
                    options.get(JobOptions.ASYNC_CAPACITY),
                    m.config.runnersHere(),
                    m.session.provider());
            System.out.printf(
                    "streaming job    : %8.1f sequences/s (%.2f s, %.2f texts/s, first record produced to last output committed)%n",
                    jobRate, stream.seconds(), texts.size() / stream.seconds());
            System.out.printf(
                    "  (warm-up pass  : %8.1f sequences/s, %.2f s: the same texts read once before, in a fresh JVM)%n",
                    windows.size() / stream.warmUpSeconds(), stream.warmUpSeconds());
            System.out.printf(
                    "bare ORT session : %8.1f sequences/s (%.2f s: mean of %.2f s before the stream and %.2f s after)%n",
                    bareRate, bareSeconds, before.seconds(), after.seconds());
            // How many cores the process got: on a shared machine, a phase that got fewer ran slower for it.
            System.out.printf(
                    "cores this process used: %.2f in the stream, %.2f and %.2f in the bare runs (of %d)%n",
                    stream.cores(),
                    before.cores(),
                    after.cores(),
                    Runtime.getRuntime().availableProcessors());
            System.out.printf("job / bare       : %8.3f%n", jobRate / bareRate);
            System.out.printf(
                    "stream batches   : %d, mean size %.1f, padding efficiency (real / padded tokens) %.3f%n",
                    stream.batches().batches(),
                    stream.batches().meanBatchSize(),
                    stream.batches().paddingEfficiency());
            new StreamBreakdown(
                            stream.timesBefore(),
                            stream.timesAfter(),
                            bareSeconds,
                            BenchCommand.paddedTokens(
                                    windows, m.config.batchMaxSize().value()),
                            stream.batches().paddedTokens(),
                            stream.cpuNanos(),
                            Runtime.getRuntime().availableProcessors())
                    .lines()
                    .forEach(System.out::println);
        }
        return 0;
    }

    /** A bare run's time, and the process's CPU time in it. */
    private record Bare(double seconds, long cpuNanos) {
        double cores() {
            return cpuNanos / 1e9 / seconds;
        }
    }

    private Bare bare(LocalModel m, List<MrcWindow> windows) {
        long cpu0 = cpu.processNanos();
        long t0 = System.nanoTime();
        m.runner.run(windows).join();
        return new Bare((System.nanoTime() - t0) / 1e9, cpu.processNanos() - cpu0);
    }

    private Configuration options() {
        Configuration options = engine.toConfiguration();
        options.setString("job.checkpoint-interval", "2 s");
        return options;
    }

    private Stream stream(Configuration options) throws Exception {
        try (LocalPipeline p = LocalPipeline.start(
                options,
                BundleChoice.ofThisInstallation(),
                StreamExecutionEnvironment.createLocalEnvironmentWithWebUI(LocalCluster.configuration(0)),
                SessionFactory.ONNX_RUNTIME)) {
            long warm0 = System.nanoTime();
            p.produce(records("warm-up", texts));
            awaitDocuments(p, texts.size());
            double warmUpSeconds = (System.nanoTime() - warm0) / 1e9;
            BatchStats.Counts before =
                    SharedModels.jvm().batchStats(p.config.serving()).orElseThrow();
            ThreadCpu.Sample cpuBefore = cpu.sample();
            ModelThreadTimes.Snapshot timesBefore =
                    SharedModels.jvm().modelThreadTimes(p.config.serving()).orElseThrow();
            long t0 = System.nanoTime();
            p.produce(records("bench", texts));
            awaitDocuments(p, 2 * texts.size());
            double seconds = (System.nanoTime() - t0) / 1e9;
            ModelThreadTimes.Snapshot timesAfter =
                    SharedModels.jvm().modelThreadTimes(p.config.serving()).orElseThrow();
            ThreadCpu.Sample cpuAfter = cpu.sample();
            return new Stream(
                    warmUpSeconds,
                    seconds,
                    SharedModels.jvm()
                            .batchStats(p.config.serving())
                            .orElseThrow()
                            .minus(before),
                    timesBefore,
                    timesAfter,
                    ThreadCpu.byGroup(cpuBefore, cpuAfter));
        }
    }

    private static void awaitDocuments(LocalPipeline p, int n) {
        List<?> docs = p.documents.pollWhileProgressing(d -> d.size() >= n, Duration.ofMinutes(5));
        if (docs.size() < n) {
            throw new IllegalStateException(
                    "the job produced " + docs.size() + " of " + n + " documents, then nothing for 5 minutes");
        }
    }

    private static List<String> records(String prefix, List<String> texts) {
        List<String> out = new ArrayList<>(texts.size());
        for (int i = 0; i < texts.size(); i++) {
            ObjectNode n = JSON.createObjectNode().put("id", prefix + "-" + i).put("abstract", texts.get(i));
            out.add(n.toString());
        }
        return out;
    }
}
