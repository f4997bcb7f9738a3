package dev.bionerstream.formats;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;

/**
 * The PubTator text format: per document {@code ID|t|title}, {@code ID|a|abstract}, one
 * {@code ID<TAB>start<TAB>end<TAB>mention<TAB>type<TAB>concept} line per annotation (code-point
 * offsets over title + " " + abstract), and a blank line. Relation lines, whose second field is a
 * relation type instead of an offset ({@code ID<TAB>CID<TAB>D008750<TAB>D003866} in BC5CDR,
 * {@code ID<TAB>Association<TAB>...} in BioRED), are read past: relations are not mentions.
 */
public final class PubTator {
    private PubTator() {}

    public static void write(Annotated d, Writer out) throws IOException {
        out.write(d.id() + "|t|" + oneLine(d.title()) + "\n");
        out.write(d.id() + "|a|" + oneLine(d.abstractText()) + "\n");
        for (Annotated.Annotation a : d.annotations()) {
            out.write(String.join(
                            "\t",
                            d.id(),
                            String.valueOf(a.start()),
                            String.valueOf(a.end()),
                            oneLine(a.text()),
                            a.type(),
                            a.conceptId())
                    + "\n");
        }
        out.write("\n");
    }

    /** Line breaks would end the record early; PubTator text is one line per field. */
    private static String oneLine(String s) {
        return s.replace('\n', ' ').replace('\r', ' ');
    }

    /** What a non-blank line of a PubTator file holds. */
    public enum LineKind {
        /** {@code ID|t|title} or {@code ID|a|abstract} */
        TEXT,
        /** an annotation: {@code ID<TAB>start<TAB>end<TAB>mention<TAB>type[<TAB>concept...]} */
        MENTION,
        /** a relation, read past: its second field is a relation type, not an offset */
        RELATION
    }

    public static LineKind kind(String line) {
        int bar = line.indexOf('|');
        int tab = line.indexOf('\t');
        if (bar > 0 && (tab < 0 || bar < tab) && line.length() > bar + 2 && line.charAt(bar + 2) == '|') {
            return LineKind.TEXT;
        }
        String[] f = line.split("\t", 3);
        return f.length >= 3 && !f[1].isEmpty() && Character.isLetter(f[1].charAt(0))
                ? LineKind.RELATION
                : LineKind.MENTION;
    }

    /**
     * A mention line ({@link #read} checked it has at least five fields) with its concept column set
     * to {@code conceptId}, added if it had none; any columns after it are kept.
     */
    public static String withConcept(String mentionLine, String conceptId) {
        String[] f = mentionLine.split("\t", -1);
        if (f.length == 5) {
            return mentionLine + "\t" + conceptId;
        }
        f[5] = conceptId;
        return String.join("\t", f);
    }

    /** Every document of a PubTator file; a malformed line is an error naming its number. */
    public static List<Annotated> read(BufferedReader in) {
        List<Annotated> docs = new ArrayList<>();
        String id = null;
        String title = null;
        String abstractText = null;
        List<Annotated.Annotation> annotations = new ArrayList<>();
        int lineNo = 0;
        try {
            for (String line = in.readLine(); ; line = in.readLine()) {
                lineNo++;
                if (line == null || line.isBlank()) {
                    if (id != null) {
                        docs.add(new Annotated(id, title, abstractText, annotations));
                        id = null;
                        title = null;
                        abstractText = null;
                        annotations = new ArrayList<>();
                    }
                    if (line == null) {
                        return docs;
                    }
                    continue;
                }
                LineKind kind = kind(line);
                if (kind == LineKind.TEXT) {
                    int bar = line.indexOf('|');
                    id = line.substring(0, bar);
                    String text = line.substring(bar + 3);
                    switch (line.charAt(bar + 1)) {
                        case 't' -> title = text;
                        case 'a' -> abstractText = text;
                        default -> throw new IllegalArgumentException(
                                "line " + lineNo + ": expected ID|t| or ID|a|, got " + line);
                    }
                } else if (kind == LineKind.MENTION) {
                    String[] f = line.split("\t", -1);
                    if (f.length < 5) {
                        throw new IllegalArgumentException("line " + lineNo
                                + ": expected ID, start, end, mention, type[, concept] separated by tabs");
                    }
                    annotations.add(new Annotated.Annotation(
                            Integer.parseInt(f[1]), Integer.parseInt(f[2]), f[3], f[4], f.length > 5 ? f[5] : "-"));
                    id = id == null ? f[0] : id;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("line " + lineNo + ": offsets must be integers", e);
        }
    }
}
