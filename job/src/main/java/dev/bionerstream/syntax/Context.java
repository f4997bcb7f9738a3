package dev.bionerstream.syntax;

/** One context word of a word: its index in the sentence (a word or a word piece) and its label. */
public record Context(int index, String label) {}
