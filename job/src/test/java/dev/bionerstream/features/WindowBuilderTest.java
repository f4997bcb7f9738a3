package dev.bionerstream.features;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class WindowBuilderTest {
    static final long CLS = 101;
    static final long SEP = 102;

    static WordPieces pieces(int n) {
        long[] ids = LongStream.range(1000, 1000 + n).toArray();
        int[] starts = new int[n];
        int[] ends = new int[n];
        for (int i = 0; i < n; i++) {
            starts[i] = 2 * i;
            ends[i] = 2 * i + 1;
        }
        return new WordPieces(ids, starts, ends);
    }

    @Test
    void shortSentenceIsOneWindowWithSegmentsAndSpecialTokens() {
        MrcWindow w = new WindowBuilder(32, CLS, SEP)
                .windows(pieces(3), new long[] {7, 8}, 1)
                .get(0);
        assertThat(w.inputIds()).containsExactly(CLS, 1000, 1001, 1002, SEP, 7, 8, SEP);
        assertThat(w.tokenTypeIds()).containsExactly(0, 0, 0, 0, 0, 1, 1, 1);
        assertThat(w.contextLength()).isEqualTo(3);
        assertThat(w.typeIndex()).isEqualTo(1);
        assertThat(w.ownedFrom()).isZero();
        assertThat(w.ownedTo()).isEqualTo(3);
    }

    @Test
    void theGatesWindowIsTheSentenceAloneInSegmentZero() {
        MrcWindow w = new WindowBuilder(32, CLS, SEP).gateWindows(pieces(3)).get(0);
        assertThat(w.inputIds()).containsExactly(CLS, 1000, 1001, 1002, SEP);
        assertThat(w.tokenTypeIds()).containsOnly(0L);
        assertThat(w.isGate()).isTrue();
        assertThat(w.contextLength()).isEqualTo(3);
    }

    @Test
    void aLongSentencesGateWindowsFillTheMaximumLengthAndOwnEachPieceOnce() {
        List<MrcWindow> ws = new WindowBuilder(12, CLS, SEP).gateWindows(pieces(25)); // budget 10, stride 5
        assertThat(ws).hasSize(4).allSatisfy(w -> {
            assertThat(w.length()).isEqualTo(12);
            assertThat(w.inputIds()[0]).isEqualTo(CLS);
            assertThat(w.inputIds()[11]).isEqualTo(SEP);
        });
        assertThat(ws).extracting(MrcWindow::firstPiece).containsExactly(0, 5, 10, 15);
        assertThat(ws.get(0).ownedFrom()).isZero();
        assertThat(ws.get(3).ownedTo()).isEqualTo(25);
        for (int k = 1; k < ws.size(); k++) {
            assertThat(ws.get(k).ownedFrom()).isEqualTo(ws.get(k - 1).ownedTo());
        }
    }

    @Test
    void longSentenceIsCoveredByOverlappingWindowsThatOwnEachPieceOnce() {
        int n = 50;
        // max length 16, query 3 -> budget 10, stride 5
        List<MrcWindow> ws = new WindowBuilder(16, CLS, SEP).windows(pieces(n), new long[] {7, 8, 9}, 0);
        assertThat(ws).allSatisfy(w -> assertThat(w.length()).isLessThanOrEqualTo(16));
        int[] owners = new int[n];
        for (MrcWindow w : ws) {
            assertThat(w.ownedFrom()).isGreaterThanOrEqualTo(w.firstPiece());
            assertThat(w.ownedTo()).isLessThanOrEqualTo(w.firstPiece() + w.contextLength());
            for (int p = w.ownedFrom(); p < w.ownedTo(); p++) {
                owners[p]++;
            }
        }
        assertThat(owners).containsOnly(1);
        MrcWindow last = ws.get(ws.size() - 1);
        assertThat(last.firstPiece() + last.contextLength()).isEqualTo(n);
    }

    @Test
    void queryTooLongForTheModelIsRejected() {
        assertThatThrownBy(() -> new WindowBuilder(8, CLS, SEP).windows(pieces(3), new long[] {1, 2, 3, 4}, 0))
                .hasMessageContaining("leaves no context");
    }
}
