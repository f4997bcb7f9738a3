package dev.bionerstream.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.inference.InferenceOptions;
import dev.bionerstream.inference.MrcSession;
import dev.bionerstream.inference.OrtMrcSession;
import dev.bionerstream.model.ModelBundle;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The default model, end to end, on sentences of the kind it was trained on: what the shipped model
 * finds, so an integration test (it reads the 67 MB model).
 */
class MrcEngineITCase {
    @Test
    void findsChemicalsDiseasesGenesAndSpeciesInAnAbstract() {
        String text = "Naloxone reverses the antihypertensive effect of clonidine. "
                + "In mice, lithium treatment induced nephrogenic diabetes insipidus and reduced the expression of aquaporin-2.";
        ModelBundle bundle = ModelBundle.loadDefault();
        try (MrcSession session = OrtMrcSession.open(bundle, InferenceOptions.cpu(2));
                MrcEngine engine = new MrcEngine(bundle, List.of())) {
            List<Entity> found = engine.extract(
                            List.of(text), Segmentation.SENTENCES, new LengthSortedBatches(session, new BatchSize(16)))
                    .join()
                    .entities()
                    .get(0);
            assertThat(found)
                    .extracting(Entity::type, Entity::text)
                    .contains(
                            org.assertj.core.groups.Tuple.tuple("chemical", "Naloxone"),
                            org.assertj.core.groups.Tuple.tuple("chemical", "clonidine"),
                            org.assertj.core.groups.Tuple.tuple("chemical", "lithium"),
                            org.assertj.core.groups.Tuple.tuple("disease", "nephrogenic diabetes insipidus"),
                            org.assertj.core.groups.Tuple.tuple("species", "mice"),
                            org.assertj.core.groups.Tuple.tuple("gene", "aquaporin-2"));
            assertThat(found).allSatisfy(e -> {
                assertThat(text.substring(e.start(), e.end())).isEqualTo(e.text());
                assertThat(e.score()).isBetween(0.5, 1.0);
            });
        }
    }
}
