package dev.bionerstream.decode;

/** A decoded span over context pieces, both ends inclusive, with its score. */
public record PieceSpan(int first, int last, double score) {}
