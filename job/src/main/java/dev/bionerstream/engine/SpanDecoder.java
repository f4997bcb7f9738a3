package dev.bionerstream.engine;

import dev.bionerstream.inference.WindowLogits;
import java.util.ArrayList;
import java.util.List;

/**
 * The reference decoding of BioBERT-MRC: argmax start and end per context piece; every start
 * {@code i} is matched with the nearest end {@code j >= i}; when two spans overlap the earlier is
 * dropped (so an end closes only its nearest start). The score is
 * {@code sqrt(P(start at i) * P(end at j))}.
 */
public final class SpanDecoder {
    private SpanDecoder() {}

    public static List<PieceSpan> decode(WindowLogits logits) {
        int n = logits.contextLength();
        List<PieceSpan> spans = new ArrayList<>();
        int end = -1;
        for (int i = 0; i < n; i++) {
            if (!logits.isStart(i)) {
                continue;
            }
            if (end < i) {
                end = i;
                while (end < n && !logits.isEnd(end)) {
                    end++;
                }
                if (end == n) {
                    break;
                }
            }
            if (!spans.isEmpty() && spans.get(spans.size() - 1).last() >= i) {
                spans.remove(spans.size() - 1);
            }
            double score = Math.sqrt(logits.startProbability(i) * logits.endProbability(end));
            spans.add(new PieceSpan(i, end, score));
        }
        return spans;
    }
}
