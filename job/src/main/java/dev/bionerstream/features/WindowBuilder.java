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
        return slices(sentence.size(), budget).stream()
                .map(s -> window(sentence, query, typeIndex, s))
                .toList();
    }

    /** The presence gate's query-free inputs, {@code [CLS] context [SEP]}, cut as {@link #windows} cuts. */
    public List<MrcWindow> gateWindows(WordPieces sentence) {
        return slices(sentence.size(), maxLength - 2).stream()
                .map(s -> window(sentence, null, MrcWindow.GATE, s))
                .toList();
    }

    private record Slice(int first, int length, int ownedFrom, int ownedTo) {}

    private static List<Slice> slices(int n, int budget) {
        List<Integer> firsts = new ArrayList<>();
        int stride = Math.max(1, budget / 2);
        for (int first = 0; ; first += stride) {
            if (first + budget >= n) {
                firsts.add(Math.max(0, n - budget));
                break;
            }
            firsts.add(first);
        }
        List<Slice> out = new ArrayList<>(firsts.size());
        for (int w = 0; w < firsts.size(); w++) {
            int first = firsts.get(w);
            int ownedFrom = w == 0 ? 0 : (first + firsts.get(w - 1) + budget) / 2;
            int ownedTo = w == firsts.size() - 1 ? n : (firsts.get(w + 1) + first + budget) / 2;
            out.add(new Slice(first, Math.min(budget, n - first), ownedFrom, ownedTo));
        }
        return out;
    }

    /** {@code [CLS] context [SEP] query [SEP]}, or {@code [CLS] context [SEP]} when {@code query} is null. */
    private MrcWindow window(WordPieces s, long[] query, int typeIndex, Slice slice) {
        int length = slice.length();
        int total = length + 2 + (query == null ? 0 : query.length + 1);
        long[] ids = new long[total];
        long[] segments = new long[total];
        ids[0] = clsId;
        System.arraycopy(s.ids(), slice.first(), ids, 1, length);
        ids[length + 1] = sepId;
        if (query != null) {
            System.arraycopy(query, 0, ids, length + 2, query.length);
            ids[total - 1] = sepId;
            for (int i = length + 2; i < total; i++) {
                segments[i] = 1;
            }
        }
        return new MrcWindow(typeIndex, slice.first(), length, slice.ownedFrom(), slice.ownedTo(), ids, segments);
    }
}
