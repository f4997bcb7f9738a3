package dev.bionerstream.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bionerstream.demo.SampleAbstracts;
import dev.bionerstream.engine.Segmentation;
import dev.bionerstream.eval.IobCorpus;
import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.syntax.OpenNlpAnnotator;
import dev.bionerstream.text.Sentence;
import dev.bionerstream.text.SentenceSplitter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Measures, in one run and on the same batches, the bare ONNX Runtime session on pre-tokenized
 * windows and the whole engine (split, tokenize, window, batch, infer, decode).
 */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        defaultValueProvider = ServingDefaults.class,
        header = "Throughput of the model, the engine or the job (--stream)",
        description = {
            "Sequences/s of the bare ONNX Runtime session on pre-tokenized batches and of the whole engine on the same batches, their ratio and padding efficiency (default input: the sample abstracts, title and abstract as one text). With --stream, the streaming job instead (embedded Kafka in and out, local cluster, exactly-once with 2 s checkpoints, measured on a second pass after an unmeasured first that warms the JVM) against the bare session on the same windows. For a bundle with syntax, also the syntax annotator's sentences/s."
        },
        footerHeading = "%nExamples:%n",
        footer = {"  ./bioner bench --limit 200 --rounds 3", "  ./bioner bench --stream --limit 200"})
final class BenchCommand implements Callable<Integer> {
    @Mixin
    EngineArgs engine;

    static final class Input {
        @Option(names = "--texts", description = "file with one text per line (default: the sample abstracts)")
        Path texts;

        @Option(names = "--iob", description = "IOB file; consecutive sentences are grouped into texts")
        Path iob;
    }

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Input input = new Input();

    @Option(
            names = "--sentences-per-text",
            defaultValue = "10",
            description = "with --iob: sentences per text. Default: ${DEFAULT-VALUE}")
    int sentencesPerText;

    @Option(names = "--limit", defaultValue = "500", description = "texts to use. Default: ${DEFAULT-VALUE}")
    int limit;

    @Option(
            names = "--stream",
            description =
                    "measure the streaming job instead: embedded Kafka in and out, a local Flink cluster, "
                            + "checkpoints every 2 s, measured on a second pass over the texts (the first warms the JVM); compared with the bare session on the same windows in the same run")
    boolean stream;

    @Option(
            names = "--rounds",
            defaultValue = "3",
            description = "timed rounds of each; the best is reported. Default: ${DEFAULT-VALUE}")
    int rounds;

    @Override
    public Integer call() throws Exception {
        List<String> texts = loadTexts();
        return stream ? new StreamBench(engine, texts).run() : engineBench(texts);
    }

    private int engineBench(List<String> texts) {
        try (LocalModel m = engine.open()) {
            List<MrcWindow> windows = m.engine.windows(texts, Segmentation.SENTENCES);
            int batch = m.config.batchMaxSize().value();
            System.out.printf(
                    "%s on %s: %d texts, %d windows, batch %d, runners %d, provider %s%n",
                    m.engine.manifest().id(),
                    source(),
                    texts.size(),
                    windows.size(),
                    batch,
                    m.config.runnersHere(),
                    m.session.provider());
            m.runner
                    .run(windows.subList(0, Math.min(windows.size(), 4 * batch)))
                    .join();
            double bare = Double.MAX_VALUE;
            double whole = Double.MAX_VALUE;
            for (int r = 0; r < rounds; r++) {
                long t0 = System.nanoTime();
                m.runner.run(windows).join();
                long t1 = System.nanoTime();
                m.extract(texts, Segmentation.SENTENCES);
                long t2 = System.nanoTime();
                bare = Math.min(bare, (t1 - t0) / 1e9);
                whole = Math.min(whole, (t2 - t1) / 1e9);
            }
            double bareRate = windows.size() / bare;
            double engineRate = windows.size() / whole;
            System.out.printf("bare ORT session : %8.1f sequences/s (%.2f s)%n", bareRate, bare);
            System.out.printf("whole engine     : %8.1f sequences/s (%.2f s)%n", engineRate, whole);
            System.out.printf("engine / bare    : %8.3f%n", engineRate / bareRate);
            System.out.printf(
                    "padding efficiency of length-sorted batches (real / padded tokens): %.3f%n",
                    paddingEfficiency(windows, batch));
            if (m.engine.manifest().syntax() != null) {
                annotatorBench(texts, bare, whole);
            }
        }
        return 0;
    }

    /** A syntax bundle's annotator alone on the same sentences, beside the model's rate on them. */
    private void annotatorBench(List<String> texts, double bare, double whole) {
        SentenceSplitter splitter = new SentenceSplitter();
        List<String> sentences = texts.stream()
                .flatMap(t -> splitter.split(t).stream())
                .map(Sentence::text)
                .toList();
        OpenNlpAnnotator annotator = OpenNlpAnnotator.shared();
        double seconds = Double.MAX_VALUE;
        for (int r = 0; r < rounds; r++) {
            long t0 = System.nanoTime();
            sentences.forEach(annotator::annotate);
            seconds = Math.min(seconds, (System.nanoTime() - t0) / 1e9);
        }
        System.out.printf(
                "syntax annotator : %8.1f sentences/s (%.2f s, one thread; %s)%n",
                sentences.size() / seconds, seconds, annotator.name());
        System.out.printf(
                "model            : %8.1f sentences/s bare, %.1f through the whole engine (annotator included)%n",
                sentences.size() / bare, sentences.size() / whole);
    }

    static double paddingEfficiency(List<MrcWindow> windows, int batchSize) {
        long padded = paddedTokens(windows, batchSize);
        return padded == 0
                ? 1
                : (double) windows.stream().mapToLong(MrcWindow::length).sum() / padded;
    }

    /** Tokens computed when {@code windows} run in globally length-sorted batches, each padded to its longest. */
    static long paddedTokens(List<MrcWindow> windows, int batchSize) {
        int[] lengths = windows.stream().mapToInt(MrcWindow::length).sorted().toArray();
        long padded = 0;
        for (int from = 0; from < lengths.length; from += batchSize) {
            int to = Math.min(lengths.length, from + batchSize);
            padded += (long) (to - from) * lengths[to - 1];
        }
        return padded;
    }

    private Object source() {
        return input.texts != null ? input.texts : input.iob != null ? input.iob : "the sample abstracts";
    }

    private List<String> loadTexts() throws IOException {
        List<String> texts = new ArrayList<>();
        if (input.texts == null && input.iob == null) {
            ObjectMapper json = new ObjectMapper();
            for (String line : SampleAbstracts.load(limit)) {
                JsonNode n = json.readTree(line);
                texts.add(n.get("title").asText() + " " + n.get("abstract").asText());
            }
        } else if (input.texts != null) {
            for (String line : Files.readAllLines(input.texts, StandardCharsets.UTF_8)) {
                if (!line.isBlank()) {
                    texts.add(line);
                }
            }
        } else {
            List<String> sentences = IobCorpus.read(input.iob, Map.of()).sentences();
            for (int i = 0; i < sentences.size(); i += sentencesPerText) {
                texts.add(String.join(" ", sentences.subList(i, Math.min(sentences.size(), i + sentencesPerText))));
            }
        }
        return texts.subList(0, Math.min(limit, texts.size()));
    }
}
