package dev.bionerstream.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bionerstream.engine.BatchSize;
import dev.bionerstream.engine.GateSetting;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

class ModelRoutesTest {
    static ModelRoutes routes(Map<String, String> options) {
        return ModelRoutes.from(Configuration.fromMap(options), BundleChoice.NO_INSTALLATION);
    }

    @Test
    void everyFormOfALanguageCodeReachesItsBundleAndTheRestTheDefault() {
        ModelRoutes r = routes(Map.of(
                "model.language-bundles", "es=/models/pharmaconer, ger=/models/german",
                "model.entity-types", "chemical",
                "batch.max-size", "16"));
        for (String spanish : new String[] {"es", "spa", "SPA", " es "}) {
            assertThat(r.forLanguage(spanish).bundle()).as(spanish).isEqualTo("/models/pharmaconer");
        }
        assertThat(r.forLanguage("deu").bundle())
                .as("PubMed's 'ger' is ISO 639-2/T 'deu'")
                .isEqualTo("/models/german");
        assertThat(r.forLanguage("de").bundle()).isEqualTo("/models/german");
        assertThat(r.forLanguage("eng")).isSameAs(r.defaultModel());
        assertThat(r.forLanguage(null)).isSameAs(r.defaultModel());
        assertThat(r.forLanguage("")).isSameAs(r.defaultModel());
        assertThat(r.forLanguage("xx")).isSameAs(r.defaultModel());
        ServingConfig es = r.forLanguage("es");
        assertThat(es.entityTypes())
                .as("a language bundle serves all its own types")
                .isEmpty();
        assertThat(es.batchMaxSize()).isEqualTo(new BatchSize(16));
        assertThat(r.defaultModel().entityTypes()).containsExactly("chemical");
        assertThat(r.all()).hasSize(3).first().isSameAs(r.defaultModel());
    }

    @Test
    void aLanguageBundleUsesItsOwnMeasuredGateUnlessGatesAreOff() {
        Map<String, String> spanish = Map.of("model.language-bundles", "es=/models/pharmaconer");
        for (String gate : new String[] {"on", "0.3", "bundle"}) {
            ModelRoutes r = routes(Map.of("model.language-bundles", "es=/models/pharmaconer", "model.gate", gate));
            assertThat(r.forLanguage("es").gate()).as(gate).isEqualTo(GateSetting.BUNDLE);
            assertThat(r.defaultModel().gate()).isEqualTo(GateSetting.parse(gate));
        }
        ModelRoutes off = routes(Map.of("model.language-bundles", "es=/models/pharmaconer", "model.gate", "Off"));
        assertThat(off.forLanguage("es").gate()).isEqualTo(GateSetting.OFF);
        assertThat(routes(spanish).forLanguage("es").gate()).isEqualTo(GateSetting.BUNDLE);
    }

    @Test
    void malformedOrContradictoryPairsAreRefusedWithTheFix() {
        assertThatThrownBy(() -> routes(Map.of("model.language-bundles", "spa:/models/x")))
                .hasMessageContaining("takes LANG=DIR pairs");
        assertThatThrownBy(() -> routes(Map.of("model.language-bundles", "es=/a,spa=/b")))
                .hasMessageContaining("two bundles for language spa: /a and /b");
        assertThat(routes(Map.of()).all()).hasSize(1);
    }
}
