package dev.bionerstream.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import java.util.List;
import org.junit.jupiter.api.Test;

class ScoresTest {
    @Test
    void exactMatchPerTypeAndOverall() {
        Scores s = new Scores();
        s.add(
                List.of(new Span("chemical", 0, 5), new Span("chemical", 10, 12), new Span("disease", 3, 9)),
                List.of(new Span("chemical", 0, 5), new Span("disease", 3, 8)));
        assertThat(s.get("chemical")).isEqualTo(new Scores.Counts(1, 1, 0));
        assertThat(s.get("disease")).isEqualTo(new Scores.Counts(0, 1, 1));
        assertThat(s.get(Scores.ALL)).isEqualTo(new Scores.Counts(1, 2, 1));
        assertThat(s.get(Scores.ALL).precision()).isCloseTo(33.333, offset(0.01));
        assertThat(s.get(Scores.ALL).recall()).isCloseTo(50.0, offset(0.01));
        assertThat(s.get(Scores.ALL).f1()).isCloseTo(40.0, offset(0.01));
        assertThat(s.table()).contains("chemical").contains("all");
    }

    @Test
    void noPredictionsAndNoGoldIsZeroNotNaN() {
        assertThat(new Scores().get("x").f1()).isZero();
    }
}
