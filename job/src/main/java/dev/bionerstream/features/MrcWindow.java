package dev.bionerstream.features;

/**
 * One model input: {@code [CLS] context [SEP] query [SEP]} for a run of a sentence's word pieces
 * and one entity type. Context piece {@code k} sits at position {@code k + 1}; the window covers
 * sentence pieces {@code [firstPiece, firstPiece + contextLength)} and owns the spans that start
 * in {@code [ownedFrom, ownedTo)}, so overlapping windows never report a span twice.
 */
public record MrcWindow(
        int typeIndex,
        int firstPiece,
        int contextLength,
        int ownedFrom,
        int ownedTo,
        long[] inputIds,
        long[] tokenTypeIds) {

    public int length() {
        return inputIds.length;
    }
}
