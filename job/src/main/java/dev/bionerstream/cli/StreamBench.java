package dev.bionerstream.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.bionerstream.demo.LocalPipeline;
import dev.bionerstream.engine.Segmentation;
import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.serving.BatchStats;
import dev.bionerstream.serving.SessionFactory;
import dev.bionerstream.serving.SharedModels;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The streaming job's steady state against the bare model, in one run on one machine: texts
 * through the real topology (embedded Kafka in and out, exactly-once, checkpoints, model already
 * warm), then the same windows through the bare session in length-sorted batches.
 */
final class StreamBench {
    private static final int WARM_UP = 10;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final EngineArgs engine;
    private final List<String> texts;

    StreamBench(EngineArgs engine, List<String> texts) {
        this.engine = engine;
        this.texts = texts;
    }

    int run() throws Exception {
        Configuration options = engine.toConfiguration();
        options.setString("job.checkpoint-interval", "2 s");
        List<MrcWindow> windows;
        double jobSeconds;
        BatchStats.Counts stream;
        try (LocalPipeline p = LocalPipeline.start(
                options,
                StreamExecutionEnvironment.createLocalEnvironmentWithWebUI(LocalCluster.configuration(0)),
                SessionFactory.ONNX_RUNTIME)) {
            int warmUp = Math.min(WARM_UP, texts.size());
            p.produce(records("warm-up", texts.subList(0, warmUp)));
            awaitDocuments(p, warmUp);
            BatchStats.Counts before =
                    SharedModels.batchStats(p.config.serving()).orElseThrow();
            long t0 = System.nanoTime();
            p.produce(records("bench", texts));
            awaitDocuments(p, warmUp + texts.size());
            jobSeconds = (System.nanoTime() - t0) / 1e9;
            stream = SharedModels.batchStats(p.config.serving()).orElseThrow().minus(before);
        }
        try (LocalModel m = engine.open()) {
            windows = m.engine.windows(texts, Segmentation.SENTENCES);
            m.runner
                    .run(windows.subList(
                            0,
                            Math.min(windows.size(), 4 * m.config.batchMaxSize().value())))
                    .join();
            long t0 = System.nanoTime();
            m.runner.run(windows).join();
            double bareSeconds = (System.nanoTime() - t0) / 1e9;
            double jobRate = windows.size() / jobSeconds;
            double bareRate = windows.size() / bareSeconds;
            System.out.printf(
                    "%s: %d texts, %d windows, batch.max-size %d, batch.max-wait %s, provider %s%n",
                    m.engine.manifest().id(),
                    texts.size(),
                    windows.size(),
                    m.config.batchMaxSize().value(),
                    m.config.batchMaxWait(),
                    m.session.provider());
            System.out.printf(
                    "streaming job    : %8.1f sequences/s (%.2f s, %.2f texts/s, first record produced to last output committed)%n",
                    jobRate, jobSeconds, texts.size() / jobSeconds);
            System.out.printf("bare ORT session : %8.1f sequences/s (%.2f s)%n", bareRate, bareSeconds);
            System.out.printf("job / bare       : %8.3f%n", jobRate / bareRate);
            System.out.printf(
                    "stream batches   : %d, mean size %.1f, padding efficiency (real / padded tokens) %.3f%n",
                    stream.batches(), stream.meanBatchSize(), stream.paddingEfficiency());
        }
        return 0;
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
