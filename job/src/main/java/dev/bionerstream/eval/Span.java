package dev.bionerstream.eval;

/** A typed char span, the unit of exact-match evaluation. */
public record Span(String type, int start, int end) {}
