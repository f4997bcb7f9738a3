package dev.bionerstream.linking;

/**
 * A mention to link: its entity type (chemical, disease, gene, species...), its text, and where it
 * starts in its document's text, in UTF-16 chars ({@link #UNKNOWN} if not known: genes then follow
 * the document's species as a whole rather than those around them).
 */
public record Mention(String type, String text, int start) {
    public static final int UNKNOWN = -1;

    public Mention(String type, String text) {
        this(type, text, UNKNOWN);
    }

    /** Where it ends in its document's text; {@link #UNKNOWN} if its start is not known. */
    public int end() {
        return start < 0 ? UNKNOWN : start + text.length();
    }
}
