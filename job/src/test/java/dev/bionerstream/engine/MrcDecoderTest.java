package dev.bionerstream.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.model.EntityQuery;
import dev.bionerstream.model.ModelBundle;
import dev.bionerstream.serving.TestingMrcSession;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
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

    static MrcEngine engine(int batchSize) {
        return new MrcEngine(bundle, new TestingMrcSession(Set.of(lithium)), batchSize);
    }

    @Test
    void charOffsetsReferToTheOriginalTextAcrossSentences() {
        String text = "Über-dosage of Lithium causes β-cell damage.  Then LITHIUM was stopped (cf. Fig. 2).";
        try (MrcEngine e = engine(4)) {
            List<Entity> found = e.extract(List.of(text)).get(0);
            List<Entity> chemicals = found.stream().filter(x -> x.type().equals("chemical")).toList();
            assertThat(chemicals).extracting(Entity::text).containsExactly("Lithium", "LITHIUM");
            assertThat(chemicals).extracting(Entity::sentenceIndex).containsExactly(0, 1);
            assertThat(chemicals).allSatisfy(x -> assertThat(text.substring(x.start(), x.end())).isEqualTo(x.text()));
        }
    }

    @Test
    void aSpanClaimedByTwoTypesIsKeptOncePerType() {
        try (MrcEngine e = engine(8)) {
            List<Entity> found = e.extractSentences(List.of("lithium")).get(0);
            List<String> types = bundle.manifest().entityTypes().stream().map(EntityQuery::name).toList();
            assertThat(found).extracting(Entity::type).containsExactlyInAnyOrderElementsOf(types);
            assertThat(found).allSatisfy(x -> assertThat(x.text()).isEqualTo("lithium"));
        }
    }

    @Test
    void aLongSentenceIsWindowedAndEachSpanReportedOnce() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 60; i++) {
            sb.append("patients received lithium daily ");
        }
        String sentence = sb.toString().trim();
        try (MrcEngine e = engine(16)) {
            EncodedText enc = e.encoder().encodeSentence(sentence);
            int types = bundle.manifest().entityTypes().size();
            assertThat(enc.windows().size()).isGreaterThan(types); // more than one window per type
            List<Entity> found = e.extractSentences(List.of(sentence)).get(0);
            assertThat(found.stream().filter(x -> x.type().equals("chemical"))).hasSize(60);
        }
    }

    @Test
    void onlyTheSelectedTypesAreRun() {
        TestingMrcSession session = new TestingMrcSession(Set.of(lithium));
        try (MrcEngine e = new MrcEngine(bundle, session, 8, List.of("disease"))) {
            assertThat(e.extractSentences(List.of("lithium"))).singleElement()
                    .satisfies(found -> assertThat(found).extracting(Entity::type).containsExactly("disease"));
            assertThat(session.batches).singleElement().satisfies(b -> assertThat(b).hasSize(1));
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new MrcEngine(bundle, session, 8, List.of("protein")))
                .hasMessageContaining("no entity type 'protein'");
    }

    @Test
    void emptyTextHasNoEntities() {
        try (MrcEngine e = engine(4)) {
            assertThat(e.extract(List.of("", "   "))).containsExactly(List.of(), List.of());
        }
    }
}
