package dev.bionerstream.features;

import dev.bionerstream.syntax.Context;
import dev.bionerstream.syntax.SyntaxKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a sentence's {@link PieceSyntax} into the {@link SyntaxInput}s of one window, with the
 * label vocabulary and the number of contexts per position ({@code width}) the bundle was trained
 * with. Label id 0 is "none", 1 a label unseen in training, then the bundle's labels in order;
 * contexts beyond {@code width} are dropped in order (the word itself comes first).
 */
public final class SyntaxEncoder {
    /** One kind the model reads: its graph width and training labels. */
    public record Kind(SyntaxKind kind, int width, List<String> labels) {}

    private final List<Kind> kinds;
    private final List<Map<String, Long>> ids = new ArrayList<>();

    public SyntaxEncoder(List<Kind> kinds) {
        this.kinds = List.copyOf(kinds);
        for (Kind k : kinds) {
            Map<String, Long> m = new HashMap<>();
            for (int i = 0; i < k.labels().size(); i++) {
                m.put(k.labels().get(i), i + 2L);
            }
            ids.add(m);
        }
    }

    public List<Kind> kinds() {
        return kinds;
    }

    /** The inputs of a window of {@code length} positions whose context covers sentence pieces {@code [first, first + contextLength)}. */
    public List<SyntaxInput> encode(PieceSyntax syntax, int first, int contextLength, int length) {
        List<SyntaxInput> out = new ArrayList<>(kinds.size());
        for (int k = 0; k < kinds.size(); k++) {
            Kind kind = kinds.get(k);
            int width = kind.width();
            long[] positions = new long[length * width];
            long[] labels = new long[length * width];
            List<List<Context>> byPiece = syntax.contexts().get(kind.kind());
            for (int c = 0; c < contextLength; c++) {
                int row = (c + 1) * width;
                int used = 0;
                for (Context ctx : byPiece.get(first + c)) {
                    int at = ctx.index() - first;
                    if (used < width && at >= 0 && at < contextLength) {
                        positions[row + used] = at + 1L;
                        labels[row + used] = ids.get(k).getOrDefault(ctx.label(), 1L);
                        used++;
                    }
                }
            }
            out.add(new SyntaxInput(kind.kind(), width, positions, labels));
        }
        return out;
    }
}
