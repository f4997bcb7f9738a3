package dev.bionerstream.syntax;

import java.util.List;
import java.util.Map;

/**
 * A sentence's words ({@code [start, end)} character spans) and, per syntax kind, each word's
 * context words (indices into {@code words}, the word itself first) with their labels.
 */
public record WordSyntax(List<int[]> words, Map<SyntaxKind, List<List<Context>>> contexts) {}
