package dev.bionerstream.bench;

import dev.bionerstream.engine.Entity;
import dev.bionerstream.engine.Segmentation;
import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.linking.EntityLinker;
import dev.bionerstream.linking.Mention;
import dev.bionerstream.serving.LocalModel;
import dev.bionerstream.syntax.OpenNlpAnnotator;
import dev.bionerstream.text.DocumentText;
import dev.bionerstream.text.Sentence;
import dev.bionerstream.text.SentenceSplitter;
import java.util.List;

/**
 * The bare ONNX Runtime session on pre-tokenized windows against the whole engine (split,
 * tokenize, window, batch, infer, decode) on the same texts, in one run and on the same batches;
 * the best of {@code rounds} of each.
 */
public final class EngineBench {
    private final LocalModel model;
    private final List<String> texts;
    private final int rounds;
    private final EntityLinker linker;

    /** @param linker when not null, also times linking the engine's entities */
    public EngineBench(LocalModel model, List<String> texts, int rounds, EntityLinker linker) {
        this.model = model;
        this.texts = texts;
        this.rounds = rounds;
        this.linker = linker;
    }

    /** Prints the figures; {@code source} names where the texts came from. */
    public void run(Object source) {
        List<MrcWindow> windows = model.engine.windows(texts, Segmentation.SENTENCES);
        int batch = model.config.batchMaxSize().value();
        System.out.printf(
                "%s on %s: %d texts, %d windows, batch %d, runners %d, provider %s%n",
                model.engine.manifest().id(),
                source,
                texts.size(),
                windows.size(),
                batch,
                model.config.runnersHere(),
                model.session.provider());
        model.warmUp(windows);
        double bare = Double.MAX_VALUE;
        double whole = Double.MAX_VALUE;
        List<List<Entity>> entities = List.of();
        for (int r = 0; r < rounds; r++) {
            long t0 = System.nanoTime();
            model.runner.run(windows).join();
            long t1 = System.nanoTime();
            entities = model.extract(texts, Segmentation.SENTENCES);
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
                LengthSortedPadding.efficiency(windows, batch));
        if (model.engine.manifest().syntax() != null) {
            annotatorBench(bare, whole);
        }
        if (linker != null) {
            linkerBench(entities, whole);
        }
    }

    /** The linker on the engine's entities of every text, beside the whole engine's time on them. */
    private void linkerBench(List<List<Entity>> entities, double whole) {
        List<List<Mention>> mentions = entities.stream()
                .map(es -> es.stream()
                        .map(e -> new Mention(e.type(), e.text(), e.start()))
                        .toList())
                .toList();
        int count = mentions.stream().mapToInt(List::size).sum();
        long linked = 0;
        double seconds = Double.MAX_VALUE;
        for (int r = 0; r < rounds; r++) {
            long t0 = System.nanoTime();
            linked = 0;
            for (int i = 0; i < texts.size(); i++) {
                linked += linker.link(DocumentText.of(texts.get(i)), mentions.get(i)).stream()
                        .filter(l -> !l.isNil())
                        .count();
            }
            seconds = Math.min(seconds, (System.nanoTime() - t0) / 1e9);
        }
        System.out.printf(
                "linker           : %8.1f mentions/s (%.2f s for the %d entities of %d texts, %d linked, one thread)%n",
                count / seconds, seconds, count, texts.size(), linked);
        System.out.printf("linker / engine  : %8.3f of the whole engine's time on the same texts%n", seconds / whole);
    }

    /** A syntax bundle's annotator alone on the same sentences, beside the model's rate on them. */
    private void annotatorBench(double bare, double whole) {
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
}
