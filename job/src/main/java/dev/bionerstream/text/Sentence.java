package dev.bionerstream.text;

/**
 * A sentence of a text: its position among the text's sentences, its char range in the text and the
 * field of its document it lies in (0 for a text of one field).
 */
public record Sentence(int index, int start, int end, String text, int field) {
    public Sentence(int index, int start, int end, String text) {
        this(index, start, end, text, 0);
    }
}
