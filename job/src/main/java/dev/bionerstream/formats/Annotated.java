package dev.bionerstream.formats;

import java.util.List;

/**
 * A document as the text-mining formats see it: id, title, abstract and annotations whose offsets
 * count Unicode code points over {@code title + " " + abstract} (PubTator's and BioC's convention;
 * the job's own offsets count UTF-16 chars per field, see {@link Offsets}).
 */
public record Annotated(String id, String title, String abstractText, List<Annotation> annotations) {
    public Annotated {
        title = title == null ? "" : title;
        abstractText = abstractText == null ? "" : abstractText;
        annotations = List.copyOf(annotations);
    }

    /** One mention: code-point offsets {@code [start, end)} in the document text, its text, type and concept id ("-": none). */
    public record Annotation(int start, int end, String text, String type, String conceptId) {}

    /** The text the offsets count in: title, one space, abstract. */
    public String text() {
        return title + " " + abstractText;
    }

    /** The text of the document at an annotation's code-point offsets (which must lie within it). */
    public String textAt(Annotation a) {
        String text = text();
        int start = text.offsetByCodePoints(0, a.start());
        return text.substring(start, text.offsetByCodePoints(start, a.end() - a.start()));
    }

    /** Code-point offset where the abstract starts: the title and one space come before it. */
    public int abstractOffset() {
        return title.codePointCount(0, title.length()) + 1;
    }
}
