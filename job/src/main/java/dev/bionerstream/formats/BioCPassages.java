package dev.bionerstream.formats;

import java.util.ArrayList;
import java.util.List;

/**
 * The passage layout both BioC encodings share: a title passage at offset 0 and an abstract
 * passage after it. Reading, the first passage is the title and the others, joined by a space, the
 * abstract; each annotation is moved from its place in the BioC document (passage offset + its
 * place in the passage) to the same place in title + " " + abstract, so files whose passages are not
 * one space apart (PMC articles, sections, figure captions) keep their annotations on their words.
 * Offsets are code points.
 */
final class BioCPassages {
    /** An annotation as BioC locates it: its offset in the document, not in the passage. */
    record Located(int offset, int length, String text, String type, String identifier) {}

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

    /**
     * The next passage, its annotations and its offset in the BioC document ({@code null} when the
     * file gives none: its annotations are then taken to be in this layout already).
     */
    void passage(Integer offset, String text, List<Located> located) {
        int start;
        if (passages++ == 0) {
            start = 0;
            title = text;
        } else {
            start = title.codePointCount(0, title.length()) + 1;
            if (!abstractText.isEmpty()) {
                start += abstractText.codePointCount(0, abstractText.length()) + 1;
                abstractText.append(' ');
            }
            abstractText.append(text);
        }
        int shift = offset == null ? 0 : start - offset;
        for (Located a : located) {
            annotations.add(new Annotated.Annotation(
                    a.offset() + shift,
                    a.offset() + shift + a.length(),
                    a.text(),
                    a.type(),
                    a.identifier() == null || a.identifier().isEmpty() ? "-" : a.identifier()));
        }
    }

    Annotated document() {
        return new Annotated(id, title, abstractText.toString(), annotations);
    }
}
