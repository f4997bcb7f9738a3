package dev.bionerstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.engine.BatchSize;
import dev.bionerstream.engine.Entity;
import dev.bionerstream.engine.GateSetting;
import dev.bionerstream.engine.GeneSpans;
import dev.bionerstream.engine.LengthSortedBatches;
import dev.bionerstream.engine.MrcEngine;
import dev.bionerstream.engine.Segmentation;
import dev.bionerstream.eval.IobCorpus;
import dev.bionerstream.eval.Scores;
import dev.bionerstream.inference.InferenceOptions;
import dev.bionerstream.inference.MrcSession;
import dev.bionerstream.inference.OrtMrcSession;
import dev.bionerstream.model.ModelBundle;
import dev.bionerstream.model.TestBundles;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code ./bioner eval ner}'s path scores a syntax bundle with corpus tags exactly as model-export did
 * (bundle.json "evaluation"): the same true positives, false positives and misses. The bundle is
 * model-export's tiny random one, evaluated on 40 short NCBI-disease test sentences
 * ({@code python3 -m bioner_mrc.tiny_bundle --syntax}); its random spans make every count depend on
 * the syntax inputs and the tagged question, so any difference between the two sides shows.
 */
class SyntaxEvalParityITCase {
    @Test
    void javaCountsEqualModelExportCounts() throws Exception {
        Path dir = TestBundles.path("tiny-syntax");
        Path test = Path.of(SyntaxEvalParityITCase.class
                .getResource("/corpora/NCBI-disease-IOB/test.tsv")
                .toURI());
        ModelBundle bundle = ModelBundle.load(dir);
        Map<String, Double> reported = bundle.manifest().evaluation().get("NCBI-disease-IOB/disease");
        IobCorpus corpus = IobCorpus.read(test, Map.of("Disease", "disease"));
        try (MrcSession session = OrtMrcSession.open(bundle, InferenceOptions.cpu(1));
                // model-export asks a corpus in its own tag: NCBI-disease, the bundle's default for disease
                MrcEngine engine = new MrcEngine(
                        bundle,
                        List.of("disease"),
                        GateSetting.BUNDLE,
                        Map.of("disease", "NCBI-disease"),
                        GeneSpans.AS_DECODED)) {
            List<List<Entity>> predicted = engine.extract(
                            corpus.sentences(),
                            Segmentation.ONE_SENTENCE,
                            new LengthSortedBatches(session, new BatchSize(8)))
                    .join()
                    .entities();
            Scores.Counts java =
                    NerEvalCommand.evaluate(predicted, corpus.gold()).get("disease");
            assertThat(java.tp() + java.fp())
                    .as("the random model predicts spans")
                    .isPositive();
            assertThat(new double[] {java.tp(), java.fp(), java.fn()})
                    .containsExactly(reported.get("tp"), reported.get("fp"), reported.get("fn"));
        }
    }
}
