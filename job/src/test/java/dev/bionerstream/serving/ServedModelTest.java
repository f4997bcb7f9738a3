package dev.bionerstream.serving;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

/** A gate or corpus the bundle cannot apply is refused before any session opens, naming the option. */
class ServedModelTest {
    private static final SessionFactory NO_SESSION = (bundle, options) -> {
        throw new AssertionError("a refused setting opens no session");
    };

    private static ServingConfig config(String key, String value) {
        return ServingConfig.from(Configuration.fromMap(Map.of(key, value)), BundleChoice.NO_INSTALLATION);
    }

    @Test
    void theEnginesRefusalNamesTheOptionAsTheUserTypesIt() {
        assertThatThrownBy(() -> ServedModel.open(config("model.gate", "on"), NO_SESSION))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--model.gate on: the bundle ")
                .hasMessageContaining("has no presence gate");
        assertThatThrownBy(() -> ServedModel.open(config("model.corpus", "disease=NCBI-disease"), NO_SESSION))
                .hasMessageStartingWith("--model.corpus {disease=NCBI-disease}: the bundle ")
                .hasMessageContaining("trained without corpus tags");
    }
}
