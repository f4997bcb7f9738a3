package dev.bionerstream.formats;

import dev.bionerstream.avro.ConceptLink;
import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.avro.Mention;
import dev.bionerstream.avro.MentionLinks;
import dev.bionerstream.avro.TextField;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Between the job's records (UTF-16 offsets per field, lower-case types, linked concepts) and {@link
 * Annotated} (code points over title + " " + abstract, PubTator's capitalised types, the concept id
 * or "-"), both ways.
 */
public final class Offsets {
    private Offsets() {}

    public static Annotated annotated(DocumentEntities d) {
        String title = d.getTitle() == null ? "" : d.getTitle();
        String abstractText = d.getAbstractText() == null ? "" : d.getAbstractText();
        int abstractOffset = title.codePointCount(0, title.length()) + 1;
        List<Annotated.Annotation> out = new ArrayList<>(d.getEntities().size());
        for (int i = 0; i < d.getEntities().size(); i++) {
            Mention m = d.getEntities().get(i);
            ConceptLink link = MentionLinks.of(d, i);
            boolean inTitle = m.getField() == TextField.TITLE;
            String text = inTitle ? title : abstractText;
            int base = inTitle ? 0 : abstractOffset;
            out.add(new Annotated.Annotation(
                    base + text.codePointCount(0, m.getStart()),
                    base + text.codePointCount(0, m.getEnd()),
                    m.getText(),
                    formatType(m.getEntityType()),
                    link == null || link.getConceptId() == null ? "-" : link.getConceptId()));
        }
        return new Annotated(d.getDocumentId(), title, abstractText, out);
    }

    /** PubTator and BioC name types with a capital: chemical -> Chemical. */
    public static String formatType(String type) {
        return type.isEmpty() ? type : type.substring(0, 1).toUpperCase(Locale.ROOT) + type.substring(1);
    }

    /** The field and UTF-16 offsets in it of a code-point span of {@code doc}. */
    public static FieldSpan fieldSpan(Annotated doc, Annotated.Annotation a) {
        int abstractOffset = doc.abstractOffset();
        boolean inTitle = a.start() < abstractOffset;
        String text = inTitle ? doc.title() : doc.abstractText();
        int base = inTitle ? 0 : abstractOffset;
        return new FieldSpan(
                inTitle ? TextField.TITLE : TextField.ABSTRACT,
                text.offsetByCodePoints(0, a.start() - base),
                text.offsetByCodePoints(0, a.end() - base));
    }

    /** A span in one field of a document, in UTF-16 chars. */
    public record FieldSpan(TextField field, int start, int end) {}
}
