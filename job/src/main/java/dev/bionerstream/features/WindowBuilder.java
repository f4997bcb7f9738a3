package dev.bionerstream.features;

import java.util.ArrayList;
import java.util.List;

/**
 * Builds the model inputs of one sentence for one query. A sentence longer than the context
 * budget ({@code maxLength - query - 3}) is cut into windows that overlap by half; each window
 * owns the pieces closer to its centre than to its neighbour's.
 */
public final class WindowBuilder {
    private final int maxLength;
    private final long clsId;
    private final long sepId;

    public WindowBuilder(int maxLength, long clsId, long sepId) {
        this.maxLength = maxLength;
        this.clsId = clsId;
        this.sepId = sepId;
    }

    public List<MrcWindow> windows(WordPieces sentence, long[] query, int typeIndex) {
        int budget = maxLength - query.length - 3;
        if (budget < 2) {
            throw new IllegalArgumentException(
                    "query of " + query.length + " pieces leaves no context at max length " + maxLength);
        }
        int n = sentence.size();
        List<Integer> firsts = new ArrayList<>();
        int stride = Math.max(1, budget / 2);
        for (int first = 0; ; first += stride) {
            if (first + budget >= n) {
                firsts.add(Math.max(0, n - budget));
                break;
            }
            firsts.add(first);
        }
        List<MrcWindow> out = new ArrayList<>(firsts.size());
        for (int w = 0; w < firsts.size(); w++) {
            int first = firsts.get(w);
            int length = Math.min(budget, n - first);
            int ownedFrom = w == 0 ? 0 : (first + firsts.get(w - 1) + budget) / 2;
            int ownedTo = w == firsts.size() - 1 ? n : (firsts.get(w + 1) + first + budget) / 2;
            out.add(window(sentence, query, typeIndex, first, length, ownedFrom, ownedTo));
        }
        return out;
    }

    private MrcWindow window(
            WordPieces s, long[] query, int typeIndex, int first, int length, int ownedFrom, int ownedTo) {
        int total = length + query.length + 3;
        long[] ids = new long[total];
        long[] segments = new long[total];
        ids[0] = clsId;
        System.arraycopy(s.ids(), first, ids, 1, length);
        ids[length + 1] = sepId;
        System.arraycopy(query, 0, ids, length + 2, query.length);
        ids[total - 1] = sepId;
        for (int i = length + 2; i < total; i++) {
            segments[i] = 1;
        }
        return new MrcWindow(typeIndex, first, length, ownedFrom, ownedTo, ids, segments);
    }
}
