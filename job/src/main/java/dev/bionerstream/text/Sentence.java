package dev.bionerstream.text;

/** A sentence of a text: its position among the text's sentences and its char range in the text. */
public record Sentence(int index, int start, int end, String text) {}
