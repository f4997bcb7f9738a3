package dev.bionerstream.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.model.EntityQuery;
import dev.bionerstream.model.ModelBundle;
import dev.bionerstream.serving.TestingMrcSession;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Windows, offsets and the span rules, over the real tokenizer and a session whose answers we choose. */
class MrcDecoderTest {
    static ModelBundle bundle;
    static long lithium; // one word piece

    @BeforeAll
    static void load() {
        bundle = ModelBundle.loadDefault();
        try (var t = new dev.bionerstream.features.MrcTokenizer(bundle.tokenizerJson())) {
            lithium = t.ids("lithium")[0];
        }
    }

    static List<List<Entity>> extract(int batchSize, List<String> texts, Segmentation segmentation) {
        return extract(new TestingMrcSession(Set.of(lithium)), batchSize, List.of(), texts, segmentation);
    }

    static List<List<Entity>> extract(
            TestingMrcSession session,
            int batchSize,
            List<String> types,
            List<String> texts,
            Segmentation segmentation) {
        try (MrcEngine e = new MrcEngine(bundle, types)) {
            return e.extract(texts, segmentation, new LengthSortedBatches(session, new BatchSize(batchSize)))
                    .join()
                    .entities();
        }
    }

    @Test
    void charOffsetsReferToTheOriginalTextAcrossSentences() {
        String text = "Über-dosage of Lithium causes β-cell damage.  Then LITHIUM was stopped (cf. Fig. 2).";
        List<Entity> found = extract(4, List.of(text), Segmentation.SENTENCES).get(0);
        List<Entity> chemicals =
                found.stream().filter(x -> x.type().equals("chemical")).toList();
        assertThat(chemicals).extracting(Entity::text).containsExactly("Lithium", "LITHIUM");
        assertThat(chemicals).extracting(Entity::sentenceIndex).containsExactly(0, 1);
        assertThat(chemicals)
                .allSatisfy(x -> assertThat(text.substring(x.start(), x.end())).isEqualTo(x.text()));
    }

    @Test
    void aSpanClaimedByTwoTypesIsKeptOncePerType() {
        List<Entity> found =
                extract(8, List.of("lithium"), Segmentation.ONE_SENTENCE).get(0);
        List<String> types =
                bundle.manifest().entityTypes().stream().map(EntityQuery::name).toList();
        assertThat(found).extracting(Entity::type).containsExactlyInAnyOrderElementsOf(types);
        assertThat(found).allSatisfy(x -> assertThat(x.text()).isEqualTo("lithium"));
    }

    @Test
    void aLongSentenceIsWindowedAndEachSpanReportedOnce() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 60; i++) {
            sb.append("patients received lithium daily ");
        }
        String sentence = sb.toString().trim();
        try (MrcEngine e = new MrcEngine(bundle, List.of())) {
            int types = bundle.manifest().entityTypes().size();
            assertThat(e.windows(List.of(sentence), Segmentation.ONE_SENTENCE).size())
                    .isGreaterThan(types); // more than one window per type
        }
        List<Entity> found =
                extract(16, List.of(sentence), Segmentation.ONE_SENTENCE).get(0);
        assertThat(found.stream().filter(x -> x.type().equals("chemical"))).hasSize(60);
    }

    @Test
    void onlyTheSelectedTypesAreRun() {
        TestingMrcSession session = new TestingMrcSession(Set.of(lithium));
        assertThat(extract(session, 8, List.of("disease"), List.of("lithium"), Segmentation.ONE_SENTENCE))
                .singleElement()
                .satisfies(found -> assertThat(found).extracting(Entity::type).containsExactly("disease"));
        assertThat(session.batches).singleElement().satisfies(b -> assertThat(b).hasSize(1));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new MrcEngine(bundle, List.of("protein")))
                .hasMessageContaining("no entity type 'protein'");
    }

    @Test
    void replacementAndControlCharactersKeepOffsetsTrue() {
        String text = "a\uFFFDb lithium\u0000 and \u0007lithium.";
        List<Entity> chemicals = extract(4, List.of(text), Segmentation.SENTENCES).get(0).stream()
                .filter(x -> x.type().equals("chemical"))
                .toList();
        assertThat(chemicals).hasSize(2).allSatisfy(x -> assertThat(text.substring(x.start(), x.end()))
                .isEqualTo("lithium"));
    }

    @Test
    void emptyTextHasNoEntities() {
        assertThat(extract(4, List.of("", "   "), Segmentation.SENTENCES)).containsExactly(List.of(), List.of());
    }
}
