package dev.bionerstream.engine;

/**
 * An entity mention: its type, char range {@code [start, end)} in the text given to the engine,
 * the surface text, the sentence it lies in and a score in (0, 1].
 */
public record Entity(String type, int start, int end, String text, int sentenceIndex, double score) {}
