package dev.bionerstream.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.inference.WindowLogits;
import java.util.List;
import org.junit.jupiter.api.Test;

class SpanDecoderTest {
    /** Logits from 0/1 marks: a mark gives logits (0, 2), no mark (2, 0). */
    static WindowLogits logits(String starts, String ends) {
        float[] s = new float[starts.length() * 2];
        float[] e = new float[ends.length() * 2];
        for (int i = 0; i < starts.length(); i++) {
            s[2 * i + (starts.charAt(i) == '1' ? 1 : 0)] = 2f;
            e[2 * i + (ends.charAt(i) == '1' ? 1 : 0)] = 2f;
        }
        return new WindowLogits(s, e);
    }

    static List<int[]> spans(String starts, String ends) {
        return SpanDecoder.decode(logits(starts, ends)).stream()
                .map(p -> new int[] {p.first(), p.last()})
                .toList();
    }

    @Test
    void matchesEachStartWithTheNearestEnd() {
        assertThat(spans("1000100", "0010001")).containsExactly(new int[] {0, 2}, new int[] {4, 6});
    }

    @Test
    void singlePieceEntity() {
        assertThat(spans("00100", "00100")).containsExactly(new int[] {2, 2});
    }

    @Test
    void anEndClosesOnlyItsNearestStart() {
        // starts 0 and 2 share end 3: the overlap rule drops the earlier span
        assertThat(spans("1010", "0001")).containsExactly(new int[] {2, 3});
    }

    @Test
    void startWithoutEndIsDropped() {
        assertThat(spans("00010", "01000")).isEmpty();
        assertThat(spans("10010", "01000")).containsExactly(new int[] {0, 1});
    }

    @Test
    void endsBeforeAnyStartAreIgnored() {
        assertThat(spans("0001", "1001")).containsExactly(new int[] {3, 3});
    }

    @Test
    void tiesGoToNoEntityAsTorchArgmax() {
        WindowLogits tie = new WindowLogits(new float[] {1f, 1f}, new float[] {1f, 1f});
        assertThat(SpanDecoder.decode(tie)).isEmpty();
    }

    @Test
    void scoreIsTheGeometricMeanOfStartAndEndProbabilities() {
        WindowLogits l = new WindowLogits(new float[] {0f, 0f, 0f, 2f}, new float[] {0f, 0f, 0f, 1f});
        PieceSpan span = SpanDecoder.decode(l).get(0);
        double ps = 1 / (1 + Math.exp(-2));
        double pe = 1 / (1 + Math.exp(-1));
        assertThat(span.score()).isCloseTo(Math.sqrt(ps * pe), org.assertj.core.data.Offset.offset(1e-9));
    }
}
