package dev.bionerstream.features;

import java.util.List;

/**
 * One model input: {@code [CLS] context [SEP] query [SEP]} for a run of a sentence's word pieces
 * and one entity type, or {@code [CLS] context [SEP]} alone for the presence gate's pass
 * ({@code typeIndex} {@link #GATE}). Context piece {@code k} sits at position {@code k + 1}; the
 * window covers sentence pieces {@code [firstPiece, firstPiece + contextLength)} and owns the spans
 * that start in {@code [ownedFrom, ownedTo)}, so overlapping windows never report a span twice.
 * A bundle with syntax (combined feature attention) reads {@code syntax} beside the ids; it is
 * empty for the others.
 */
public record MrcWindow(
        int typeIndex,
        int firstPiece,
        int contextLength,
        int ownedFrom,
        int ownedTo,
        long[] inputIds,
        long[] tokenTypeIds,
        List<SyntaxInput> syntax) {

    /** A window of a bundle without syntax. */
    public MrcWindow(
            int typeIndex,
            int firstPiece,
            int contextLength,
            int ownedFrom,
            int ownedTo,
            long[] inputIds,
            long[] tokenTypeIds) {
        this(typeIndex, firstPiece, contextLength, ownedFrom, ownedTo, inputIds, tokenTypeIds, List.of());
    }

    /** The same window with the syntax inputs of its positions. */
    public MrcWindow withSyntax(List<SyntaxInput> inputs) {
        return new MrcWindow(typeIndex, firstPiece, contextLength, ownedFrom, ownedTo, inputIds, tokenTypeIds, inputs);
    }

    /** The type index of a query-free window, read for the presence gate's output. */
    public static final int GATE = -1;

    public int length() {
        return inputIds.length;
    }

    public boolean isGate() {
        return typeIndex == GATE;
    }
}
