package dev.bionerstream.inference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bionerstream.options.OptionChecks;
import dev.bionerstream.serving.ServingOptions;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

/** model.optimization is an enumType option: each level reads as the user writes it, in any case. */
class GraphOptimizationTest {
    private static GraphOptimization read(String value) {
        return OptionChecks.oneOf(
                Configuration.fromMap(Map.of(ServingOptions.OPTIMIZATION.key(), value)), ServingOptions.OPTIMIZATION);
    }

    @Test
    void eachLevelIsReadAsTheUserWritesIt() {
        for (GraphOptimization level : GraphOptimization.values()) {
            assertThat(read(level.toString())).isEqualTo(level);
        }
        assertThat(read("Extended")).isEqualTo(GraphOptimization.EXTENDED);
        assertThat(OptionChecks.oneOf(new Configuration(), ServingOptions.OPTIMIZATION))
                .isEqualTo(GraphOptimization.ALL);
        assertThat(GraphOptimization.ALL).hasToString("all");
    }

    @Test
    void anUnknownLevelNamesTheOptionAndTheChoices() {
        assertThatThrownBy(() -> read("max"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--model.optimization must be none, basic, extended or all, got max");
    }
}
