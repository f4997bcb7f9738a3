package dev.bionerstream.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bionerstream.batching.BatchStats;
import dev.bionerstream.batching.MicroBatcher;
import dev.bionerstream.batching.ModelThreadTimes;
import dev.bionerstream.demo.EmbeddedOpenSearch;
import dev.bionerstream.demo.LocalPipeline;
import dev.bionerstream.engine.Segmentation;
import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.job.JobOptions;
import dev.bionerstream.kafka.KafkaOptions;
import dev.bionerstream.serving.BundleChoice;
import dev.bionerstream.serving.LocalModel;
import dev.bionerstream.serving.SessionFactory;
import dev.bionerstream.serving.SharedModels;
import dev.bionerstream.sink.opensearch.OpenSearchSinkOptions;
import dev.bionerstream.viewer.IndexGateway;
import dev.bionerstream.viewer.ViewerConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.TimeUtils;

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
 * pass; {@code ./bioner} runs C1 only, docs/throughput.md.)
 *
 * <p>The bench listens to the job's micro-batcher as a subtask of the job uses it: it leases the
 * JVM's shared model of the job's config, which the local cluster's operators lease too.
 *
 * <p>With a {@link LatencyPlan}, the same running job then gets a steady stream at a share of the
 * capacity just measured, and the bench prints how long its records took to become visible to a
 * read_committed consumer, to one that does not wait for transactions, and (with the index) to a
 * search.
 */
public final class StreamBench {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String INDEX = "bioner-bench";

    private final LocalModel m;
    private final Configuration options;
    private final Configuration cluster;
    private final List<String> texts;
    private final LatencyPlan latency;
    private final boolean compareLinking;
    private final ThreadCpu cpu = new ThreadCpu();

    /**
     * Latency runs after the throughput passes, one per rate, each {@code length} long, with the
     * job's OpenSearch index sink on an embedded node when {@code index}.
     */
    public record LatencyPlan(List<OfferedRate> rates, Duration length, boolean index) {}

    /**
     * @param m the model of the bare runs
     * @param options the job's options (those {@code m} was opened with, checkpoints and delivery guarantee)
     * @param cluster the local cluster's configuration
     * @param latency the latency run, or null for none
     * @param compareLinking also stream the texts through a job with {@code link.enabled} false
     */
    public StreamBench(
            LocalModel m,
            Configuration options,
            Configuration cluster,
            List<String> texts,
            LatencyPlan latency,
            boolean compareLinking) {
        this.m = m;
        this.options = options.clone();
        this.cluster = cluster;
        this.texts = texts;
        this.latency = latency;
        this.compareLinking = compareLinking;
    }

    /** What the stream did between its first record produced and its last output committed. */
    private record Stream(
            double warmUpSeconds,
            double seconds,
            BatchStats.Counts batches,
            ModelThreadTimes.Snapshot timesBefore,
            ModelThreadTimes.Snapshot timesAfter,
            Map<String, Long> cpuNanos,
            List<String> latencyLines) {
        double cores() {
            return cpuNanos.values().stream().mapToLong(Long::longValue).sum() / 1e9 / seconds;
        }

        Stream withLatency(List<String> lines) {
            return new Stream(warmUpSeconds, seconds, batches, timesBefore, timesAfter, cpuNanos, lines);
        }

        /** From the first record produced to the end of the last model batch: the stream without its commit tail. */
        double steadySeconds() {
            return (timesAfter.lastModelEnd().atNanos() - timesBefore.now().atNanos()) / 1e9;
        }
    }

    public void run() throws Exception {
        List<MrcWindow> windows = m.engine.windows(texts, Segmentation.SENTENCES);
        m.warmUp(windows);
        Bare before = bare(windows);
        Stream stream = stream();
        Stream unlinked = compareLinking ? unlinked() : null;
        Bare after = bare(windows);
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
        if (unlinked != null) {
            System.out.printf(
                    "  link.enabled false: %8.1f sequences/s (%.2f s, the same texts, a job of its own after this one)%n",
                    windows.size() / unlinked.seconds(), unlinked.seconds());
            System.out.printf(
                    "linking on / off : %8.3f of the job's throughput without linking%n",
                    unlinked.seconds() / stream.seconds());
        }
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
                "  (steady state  : %8.3f, first record produced to last model batch, %.2f s: the stream without the last commit)%n",
                windows.size() / stream.steadySeconds() / bareRate, stream.steadySeconds());
        System.out.printf(
                "stream batches   : %d, mean size %.1f, padding efficiency (real / padded tokens) %.3f%n",
                stream.batches().batches(),
                stream.batches().meanBatchSize(),
                stream.batches().paddingEfficiency());
        new StreamBreakdown(
                        stream.timesBefore(),
                        stream.timesAfter(),
                        bareSeconds,
                        LengthSortedPadding.paddedTokens(
                                windows, m.config.batchMaxSize().value()),
                        stream.batches().paddedTokens(),
                        stream.cpuNanos(),
                        Runtime.getRuntime().availableProcessors())
                .lines()
                .forEach(System.out::println);
        stream.latencyLines().forEach(System.out::println);
        if (unlinked != null && !unlinked.latencyLines().isEmpty()) {
            System.out.println("the same latency runs, link.enabled false (rates against that job's own capacity):");
            unlinked.latencyLines().forEach(System.out::println);
        }
    }

    /** A bare run's time, and the process's CPU time in it. */
    private record Bare(double seconds, long cpuNanos) {
        double cores() {
            return cpuNanos / 1e9 / seconds;
        }
    }

    private Bare bare(List<MrcWindow> windows) {
        long cpu0 = cpu.processNanos();
        long t0 = System.nanoTime();
        m.runner.run(windows).join();
        return new Bare((System.nanoTime() - t0) / 1e9, cpu.processNanos() - cpu0);
    }

    /** The same stream and latency runs by a job with {@code link.enabled} false, for what linking costs. */
    private Stream unlinked() throws Exception {
        Configuration off = options.clone();
        off.set(JobOptions.LINK_ENABLED, false);
        return new StreamBench(m, off, cluster, texts, latency, false).stream();
    }

    private Stream stream() throws Exception {
        try (EmbeddedOpenSearch node = latency != null && latency.index() ? EmbeddedOpenSearch.start() : null) {
            if (node != null) {
                options.set(OpenSearchSinkOptions.HOSTS, node.url());
                options.set(OpenSearchSinkOptions.INDEX, INDEX);
            }
            return stream(node);
        }
    }

    private Stream stream(EmbeddedOpenSearch node) throws Exception {
        try (LocalPipeline p = LocalPipeline.start(
                        options,
                        BundleChoice.ofThisInstallation(),
                        StreamExecutionEnvironment.createLocalEnvironmentWithWebUI(cluster),
                        SessionFactory.ONNX_RUNTIME);
                SharedModels.Lease jobModel =
                        SharedModels.jvm().acquire(p.config.serving(), SessionFactory.ONNX_RUNTIME)) {
            long warm0 = System.nanoTime();
            p.produce(records("warm-up", texts, texts.size()).values().stream().toList());
            awaitDocuments(p, texts.size());
            double warmUpSeconds = (System.nanoTime() - warm0) / 1e9;
            MicroBatcher batcher = jobModel.batcher();
            BatchStats batches = new BatchStats();
            ModelThreadTimes times = new ModelThreadTimes(batcher.runners());
            Stream measured;
            try (MicroBatcher.Listening b = batcher.listen(batches);
                    MicroBatcher.Listening t = batcher.listen(times)) {
                ThreadCpu.Sample cpuBefore = cpu.sample();
                ModelThreadTimes.Snapshot timesBefore = times.snapshot();
                long t0 = System.nanoTime();
                p.produce(
                        records("bench", texts, texts.size()).values().stream().toList());
                awaitDocuments(p, 2 * texts.size());
                double seconds = (System.nanoTime() - t0) / 1e9;
                ModelThreadTimes.Snapshot timesAfter = times.snapshot();
                ThreadCpu.Sample cpuAfter = cpu.sample();
                if (batches.snapshot().batches() == 0) {
                    throw new IllegalStateException("the batcher listened to ran no batch: the job served "
                            + "another model than the one leased for " + p.config.serving());
                }
                measured = new Stream(
                        warmUpSeconds,
                        seconds,
                        batches.snapshot(),
                        timesBefore,
                        timesAfter,
                        ThreadCpu.byGroup(cpuBefore, cpuAfter),
                        List.of());
            }
            return latency == null
                    ? measured
                    // Capacity from the steady state: the end-to-end time also waits for the last commit, up to a
                    // whole checkpoint interval, which is latency, not throughput.
                    : measured.withLatency(latencyRuns(p, node, texts.size() / measured.steadySeconds()));
        }
    }

    /** The plan's latency runs on the running job, one after the other, the rates against {@code capacity} texts/s. */
    private List<String> latencyRuns(LocalPipeline p, EmbeddedOpenSearch node, double capacity) throws Exception {
        List<String> lines = new ArrayList<>();
        for (int run = 0; run < latency.rates().size(); run++) {
            lines.addAll(latencyRun(p, node, "latency-" + run, latency.rates().get(run), capacity));
        }
        return lines;
    }

    private List<String> latencyRun(
            LocalPipeline p, EmbeddedOpenSearch node, String idPrefix, OfferedRate rate, double capacity)
            throws Exception {
        double perSecond = rate.perSecond(capacity);
        int n = (int) Math.max(1, Math.round(perSecond * latency.length().toMillis() / 1e3));
        List<VisibilityWatch> watches = new ArrayList<>();
        watches.add(new TopicVisibility(
                p.kafka.bootstrapServers(),
                p.config.documentsTopic(),
                p.config.kafka().outputFormat(),
                true));
        TopicVisibility anyConsumer = new TopicVisibility(
                p.kafka.bootstrapServers(),
                p.config.documentsTopic(),
                p.config.kafka().outputFormat(),
                false);
        watches.add(anyConsumer);
        if (node != null) {
            watches.add(new IndexVisibility(new IndexGateway(ViewerConfig.local(node.url(), INDEX, 0))));
        }
        try {
            watches.forEach(VisibilityWatch::start);
            LatencyRun.Measured measured = new LatencyRun(
                            p.kafka.bootstrapServers(), p.config.kafka().inputTopic(), watches)
                    .run(records(idPrefix, texts, n), perSecond);
            List<String> lines = new ArrayList<>();
            lines.add(String.format(
                    "latency: %.2f texts/s offered (%s; the measured pass ran %.2f texts/s in its steady state) for %s, %d texts, "
                            + "kafka.delivery-guarantee %s, checkpoints every %s; from a record's timestamp on the input topic to its document:",
                    perSecond,
                    rate,
                    capacity,
                    TimeUtils.formatWithHighestUnit(latency.length()),
                    n,
                    options.get(KafkaOptions.DELIVERY_GUARANTEE),
                    TimeUtils.formatWithHighestUnit(options.get(KafkaOptions.CHECKPOINT_INTERVAL))));
            for (int i = 0; i < watches.size(); i++) {
                lines.add(String.format(
                        "  visible to %-32s: %s",
                        watches.get(i).name, measured.latencies().get(i).line(n)));
            }
            lines.addAll(new SlowDocuments(measured.appended(), anyConsumer.firstSeen(), anyConsumer.records())
                    .lines(anyConsumer.name, 3));
            return lines;
        } finally {
            for (VisibilityWatch w : watches) {
                w.close();
            }
        }
    }

    private static void awaitDocuments(LocalPipeline p, int n) {
        List<?> docs = p.documents.pollWhileProgressing(d -> d.size() >= n, Duration.ofMinutes(5));
        if (docs.size() < n) {
            throw new IllegalStateException(
                    "the job produced " + docs.size() + " of " + n + " documents, then nothing for 5 minutes");
        }
    }

    /** {@code n} JSON records (id -> record), the texts in turn, ids {@code prefix-0}, {@code prefix-1}, ... */
    private static Map<String, String> records(String prefix, List<String> texts, int n) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            String id = prefix + "-" + i;
            out.put(
                    id,
                    JSON.createObjectNode()
                            .put("id", id)
                            .put("abstract", texts.get(i % texts.size()))
                            .toString());
        }
        return out;
    }
}
