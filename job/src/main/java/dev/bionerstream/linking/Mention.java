package dev.bionerstream.linking;

/**
 * A mention to link: its entity type (chemical, disease, gene, species...), its text, and where it
 * starts in the document's text ({@link #UNKNOWN} if not known: genes then follow the document's
 * species as a whole rather than those of their sentence).
 */
public record Mention(String type, String text, int start) {
    public static final int UNKNOWN = -1;

    public Mention(String type, String text) {
        this(type, text, UNKNOWN);
    }
}
