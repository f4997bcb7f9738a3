package dev.bionerstream.features;

/**
 * One model input: {@code [CLS] context [SEP] query [SEP]} for a run of a sentence's word pieces
 * and one entity type, or {@code [CLS] context [SEP]} alone for the presence gate's pass
 * ({@code typeIndex} {@link #GATE}). Context piece {@code k} sits at position {@code k + 1}; the
 * window covers sentence pieces {@code [firstPiece, firstPiece + contextLength)} and owns the spans
 * that start in {@code [ownedFrom, ownedTo)}, so overlapping windows never report a span twice.
 */
public record MrcWindow(
        int typeIndex,
        int firstPiece,
        int contextLength,
        int ownedFrom,
        int ownedTo,
        long[] inputIds,
        long[] tokenTypeIds) {

    /** The type index of a query-free window, read for the presence gate's output. */
    public static final int GATE = -1;

    public int length() {
        return inputIds.length;
    }

    public boolean isGate() {
        return typeIndex == GATE;
    }
}
