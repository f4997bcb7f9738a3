package dev.bionerstream.syntax;

import java.util.Locale;

/**
 * The three views of a sentence's syntax in seed 003's combined feature attention. Each gives
 * every word a list of context words (the word itself first) with one label each.
 */
public enum SyntaxKind {
    /** The word and its neighbours (a 1-word window), labelled with their part of speech. */
    POS,
    /** The words of the word's chunk (the flat constituent around it), labelled with their chunk tags. */
    CHUNK,
    /** The word, its governor and its dependents, labelled with their relations (head rules over chunks). */
    DEP;

    /** The name in {@code bundle.json}, the graph inputs and the annotation files: pos, chunk, dep. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static SyntaxKind of(String key) {
        for (SyntaxKind k : values()) {
            if (k.key().equals(key)) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown syntax kind '" + key + "': use pos, chunk or dep");
    }
}
