package dev.bionerstream.features;

import dev.bionerstream.syntax.SyntaxKind;

/**
 * One syntax kind's model inputs for one window, row-major {@code [length, width]}: for each input
 * position, the positions of its context pieces in the same window and their label ids (0 where
 * unused: padding, special tokens, the query, contexts outside the window).
 */
public record SyntaxInput(SyntaxKind kind, int width, long[] positions, long[] labels) {}
