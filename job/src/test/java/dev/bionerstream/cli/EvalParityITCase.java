package dev.bionerstream.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.bionerstream.engine.BatchSize;
import dev.bionerstream.engine.Entity;
import dev.bionerstream.engine.GateSetting;
import dev.bionerstream.engine.LengthSortedBatches;
import dev.bionerstream.engine.MrcEngine;
import dev.bionerstream.engine.Segmentation;
import dev.bionerstream.eval.IobCorpus;
import dev.bionerstream.eval.Scores;
import dev.bionerstream.inference.InferenceOptions;
import dev.bionerstream.inference.MrcSession;
import dev.bionerstream.inference.OrtMrcSession;
import dev.bionerstream.model.ModelBundle;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Java engine scores the default bundle as model-export did (bundle.json "evaluation") on
 * each corpus's test split, within 0.1 F1. The corpora ship with the repository ({@code corpora/}):
 * a missing one is a failure, not a skip.
 */
class EvalParityITCase {
    static final Path CORPORA = Path.of("..", "corpora");

    @ParameterizedTest(name = "{0} {2}")
    @CsvSource({
        "BC5CDR-IOB, Chemical, chemical",
        "BC5CDR-IOB, Disease, disease",
        "NCBI-disease-IOB, Disease, disease",
        "BC2GM-IOB, GENE, gene",
        "linnaeus-IOB, Species, species"
    })
    void javaF1EqualsModelExportF1(String corpus, String tag, String type) {
        Path test = CORPORA.resolve(corpus).resolve("test.tsv");
        assertThat(test)
                .as("the test split shipped in the repository's corpora/ folder")
                .isRegularFile();
        ModelBundle bundle = ModelBundle.loadDefault();
        Map<String, Double> reported = bundle.manifest().evaluation().get(corpus + "/" + type);
        assertThat(reported).as("bundle.json evaluation of %s/%s", corpus, type).isNotNull();
        IobCorpus c = IobCorpus.read(test, Map.of(tag, type));
        try (MrcSession session = OrtMrcSession.open(bundle, InferenceOptions.cpu(2));
                // model-export scores every (sentence, type): no presence gate here, whatever the bundle says
                MrcEngine engine = new MrcEngine(bundle, List.of(type), GateSetting.OFF)) {
            List<List<Entity>> predicted = engine.extract(
                            c.sentences(),
                            Segmentation.ONE_SENTENCE,
                            new LengthSortedBatches(session, new BatchSize(32)))
                    .join()
                    .entities();
            Scores scores = EvalCommand.evaluate(predicted, c.gold());
            Scores.Counts java = scores.get(type);
            System.out.printf(
                    "%s/%s: Java P %.2f R %.2f F1 %.2f; model-export F1 %.2f%n",
                    corpus, type, java.precision(), java.recall(), java.f1(), reported.get("f1"));
            assertThat(java.f1()).isCloseTo(reported.get("f1"), within(0.1));
        }
    }
}
