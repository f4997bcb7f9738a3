package dev.bionerstream.inference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class GraphOptimizationTest {
    @Test
    void eachLevelIsReadAsTheUserWritesIt() {
        for (GraphOptimization level : GraphOptimization.values()) {
            assertThat(GraphOptimization.parse("model.optimization", level.toString()))
                    .isEqualTo(level);
        }
        assertThat(GraphOptimization.parse("model.optimization", " Extended ")).isEqualTo(GraphOptimization.EXTENDED);
        assertThat(GraphOptimization.ALL).hasToString("all");
    }

    @Test
    void anUnknownLevelNamesTheOptionAndTheChoices() {
        assertThatThrownBy(() -> GraphOptimization.parse("model.optimization", " max "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--model.optimization must be none, basic, extended or all, got max");
    }
}
