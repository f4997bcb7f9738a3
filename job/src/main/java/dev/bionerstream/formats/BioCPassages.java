package dev.bionerstream.formats;

import java.util.ArrayList;
import java.util.List;

/**
 * The passage layout both BioC encodings share: a title passage at offset 0 and an abstract
 * passage after it; reading, the first passage is the title and the others, joined by a space,
 * the abstract. Offsets are code points in the document.
 */
final class BioCPassages {
    private final String id;
    private String title = "";
    private final StringBuilder abstractText = new StringBuilder();
    private final List<Annotated.Annotation> annotations = new ArrayList<>();
    private int passages;

    BioCPassages(String id) {
        this.id = id;
    }

    /** Whether an annotation of {@code d} lies in its title passage (else in the abstract's). */
    static boolean inTitle(Annotated d, Annotated.Annotation a) {
        return a.start() < d.abstractOffset();
    }

    void passage(String text) {
        if (passages++ == 0) {
            title = text;
        } else {
            abstractText.append(abstractText.isEmpty() ? "" : " ").append(text);
        }
    }

    void annotation(int offset, int length, String text, String type, String identifier) {
        annotations.add(new Annotated.Annotation(
                offset, offset + length, text, type, identifier == null || identifier.isEmpty() ? "-" : identifier));
    }

    Annotated document() {
        return new Annotated(id, title, abstractText.toString(), annotations);
    }
}
