package dev.bionerstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.demo.Heartbeat;
import dev.bionerstream.engine.BatchSize;
import dev.bionerstream.engine.Entity;
import dev.bionerstream.engine.GateSetting;
import dev.bionerstream.engine.LengthSortedBatches;
import dev.bionerstream.engine.MrcEngine;
import dev.bionerstream.engine.Segmentation;
import dev.bionerstream.eval.IobCorpus;
import dev.bionerstream.inference.InferenceOptions;
import dev.bionerstream.inference.MrcSession;
import dev.bionerstream.inference.OrtMrcSession;
import dev.bionerstream.model.ModelBundle;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Java engine predicts exactly the spans model-export predicted with each shipped bundle, on
 * every sentence of a fixed part of each test split (every fifth sentence, stored in the bundle's
 * {@code predictions.json.gz}): span-level equality, so {@code ./bioner eval ner} scores what
 * model-export scored. The corpora ship with the repository ({@code corpora/}): a missing one is
 * a failure, not a skip.
 */
class EvalParityITCase {
    static final Path CORPORA = Path.of("..", "corpora");
    static final Path DEFAULT = Path.of("src", "main", "resources", "bundles", "default");
    static final Path SPANISH = Path.of("..", "bundles", "pharmaconer-es");

    @ParameterizedTest(name = "{0} on {1}")
    @CsvSource({
        "default, BC5CDR-IOB, 'Chemical=chemical,Disease=disease'",
        "default, NCBI-disease-IOB, Disease=disease",
        "default, BC2GM-IOB, GENE=gene",
        "default, linnaeus-IOB, Species=species",
        "pharmaconer-es, PharmaCoNER-IOB, 'NORMALIZABLES=normalizable,NOTNORMALIZABLES=non-normalizable,PROTEINAS=protein'"
    })
    void javaSpansEqualModelExportSpans(String bundleName, String corpus, String tags) {
        Path dir = bundleName.equals("default") ? DEFAULT : SPANISH;
        Path test = CORPORA.resolve(corpus).resolve("test.tsv");
        assertThat(test)
                .as("the test split shipped in the repository's corpora/ folder")
                .isRegularFile();
        Map<String, String> tagTypes = IobCorpus.parseTypes(tags);
        List<String> types = List.copyOf(new java.util.LinkedHashSet<>(tagTypes.values()));
        List<String> split = IobCorpus.read(test, tagTypes).sentences();
        List<StoredPredictions.Sentence> stored = StoredPredictions.read(dir).of(corpus);
        assertThat(stored)
                .as("%s's stored predictions for %s", bundleName, corpus)
                .hasSizeGreaterThan(100);

        List<String> texts = new ArrayList<>();
        for (StoredPredictions.Sentence s : stored) {
            assertThat(split.get(s.index()))
                    .as("sentence %d of %s as model-export read it", s.index(), test)
                    .isEqualTo(s.text());
            texts.add(s.text());
        }
        ModelBundle bundle = ModelBundle.load(dir);
        List<List<Entity>> predicted;
        // as ./bioner eval ner runs a CPU: a model thread of one ONNX Runtime thread per core
        int cores = Runtime.getRuntime().availableProcessors();
        try (MrcSession session = OrtMrcSession.open(bundle, InferenceOptions.cpu(1));
                // model-export asks every (sentence, type): no presence gate here, whatever the bundle says
                MrcEngine engine = new MrcEngine(bundle, types, GateSetting.OFF);
                Heartbeat h = Heartbeat.start(
                        bundleName + "'s spans in Java on " + texts.size() + " sentences of " + corpus)) {
            predicted = engine.extract(
                            texts,
                            Segmentation.ONE_SENTENCE,
                            new LengthSortedBatches(session, new BatchSize(32), cores))
                    .join()
                    .entities();
        }
        List<String> differences = new ArrayList<>();
        int spans = 0;
        for (int i = 0; i < stored.size(); i++) {
            StoredPredictions.Sentence s = stored.get(i);
            for (Map.Entry<String, List<List<Integer>>> e : s.spans().entrySet()) {
                String type = e.getKey();
                List<List<Integer>> java = predicted.get(i).stream()
                        .filter(x -> x.type().equals(type))
                        .map(x -> List.of(x.start(), x.end()))
                        .toList();
                spans += e.getValue().size();
                if (!java.equals(e.getValue())) {
                    differences.add(String.format(
                            "sentence %d (%s): model-export %s, Java %s in \"%s\"",
                            s.index(), type, e.getValue(), java, s.text()));
                }
            }
        }
        System.out.printf(
                "%s on %s: %d sentences, %d spans of model-export, %d sentence/type differences%n",
                bundleName, corpus, stored.size(), spans, differences.size());
        assertThat(differences)
                .as("(sentence, type) pairs where Java's spans differ")
                .isEmpty();
    }
}
