package dev.bionerstream.text;

import java.util.ArrayList;
import java.util.List;

/**
 * A document as every stage reads it: its fields (a title and an abstract, or one text), joined by
 * one space into {@link #text()}, and the sentences the engine reads in them. One unit throughout:
 * offsets are UTF-16 chars (Java's own) into {@link #text()}; a field's own offsets plus {@link
 * #fieldStart}. PubTator and BioC count code points over the same joined text ({@link
 * #codePointOffset}, {@link #charOffset}).
 *
 * <p>The engine reads each field on its own ({@link #fields()}: a title is never the first sentence
 * of its abstract), and the linker reads the same sentences ({@link #sentences()}, one {@link
 * SentenceSplitter}), so a sentence that decides a mention's link is one the model read.
 */
public final class DocumentText {
    private static final SentenceSplitter SPLITTER = new SentenceSplitter();

    private final List<String> fields;
    private final String text;
    private final int[] fieldStarts;
    private List<Sentence> sentences;

    private DocumentText(List<String> fields) {
        this.fields = List.copyOf(fields);
        this.text = String.join(" ", this.fields);
        this.fieldStarts = new int[this.fields.size()];
        for (int f = 1; f < fieldStarts.length; f++) {
            fieldStarts[f] = fieldStarts[f - 1] + this.fields.get(f - 1).length() + 1;
        }
    }

    /** A title and its abstract (null read as empty), as PubMed records and PubTator documents have them. */
    public static DocumentText of(String title, String abstractText) {
        return new DocumentText(List.of(title == null ? "" : title, abstractText == null ? "" : abstractText));
    }

    /** A text of one field: a line of {@code ./bioner extract}, a sentence. */
    public static DocumentText of(String text) {
        return new DocumentText(List.of(text));
    }

    /** The fields in order, each a text the engine reads on its own. */
    public List<String> fields() {
        return fields;
    }

    /** The fields joined by one space: what every offset of this document counts in. */
    public String text() {
        return text;
    }

    /** Where field {@code f} starts in {@link #text()}. */
    public int fieldStart(int f) {
        return fieldStarts[f];
    }

    /** The field {@code offset} of {@link #text()} lies in (the space before a field counts to it). */
    public int fieldAt(int offset) {
        int f = fieldStarts.length - 1;
        while (f > 0 && offset < fieldStarts[f] - 1) {
            f--;
        }
        return f;
    }

    /**
     * The sentences of every field, in order, with offsets into {@link #text()} and indices numbered
     * through the document; split once, on first use.
     */
    public List<Sentence> sentences() {
        if (sentences == null) {
            List<Sentence> all = new ArrayList<>();
            for (int f = 0; f < fields.size(); f++) {
                for (Sentence s : SPLITTER.split(fields.get(f))) {
                    all.add(new Sentence(
                            all.size(), s.start() + fieldStarts[f], s.end() + fieldStarts[f], s.text(), f));
                }
            }
            sentences = List.copyOf(all);
        }
        return sentences;
    }

    /** The sentence holding {@code offset}, else the last one before it; null before the first. */
    public Sentence sentenceAt(int offset) {
        Sentence at = null;
        for (Sentence s : sentences()) {
            if (s.start() > offset) {
                break;
            }
            at = s;
        }
        return at;
    }

    /** The code-point offset of a UTF-16 offset of {@link #text()}. */
    public int codePointOffset(int charOffset) {
        return text.codePointCount(0, charOffset);
    }

    /** The UTF-16 offset of a code-point offset of {@link #text()}; past the end: an error naming both. */
    public int charOffset(int codePointOffset) {
        int length = text.codePointCount(0, text.length());
        if (codePointOffset < 0 || codePointOffset > length) {
            throw new IllegalArgumentException(
                    "offset " + codePointOffset + " is outside the document's text of " + length + " characters");
        }
        return text.offsetByCodePoints(0, codePointOffset);
    }
}
