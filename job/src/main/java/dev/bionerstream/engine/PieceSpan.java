package dev.bionerstream.engine;

/** A decoded span over context pieces, both ends inclusive, with its score. */
public record PieceSpan(int first, int last, double score) {}
