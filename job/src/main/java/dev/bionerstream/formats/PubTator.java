package dev.bionerstream.formats;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The PubTator text format: per document {@code ID|t|title}, {@code ID|a|abstract}, one
 * {@code ID<TAB>start<TAB>end<TAB>mention<TAB>type<TAB>concept} line per annotation (code-point
 * offsets over title + " " + abstract), and a blank line. Relation lines, whose second field is a
 * relation type instead of an offset ({@code ID<TAB>CID<TAB>D008750<TAB>D003866} in BC5CDR,
 * {@code ID<TAB>Association<TAB>...} in BioRED), are read past: relations are not mentions.
 */
public final class PubTator {
    private static final Pattern RELATION_TYPE = Pattern.compile("[A-Za-z_]+");

    private PubTator() {}

    /** What to do with a mention whose text is not the document's text at its offsets. */
    public enum MentionText {
        /** Refuse the file, naming the line: what is linked or imported must be what the text says. */
        MUST_MATCH,
        /** Keep it as written (published corpora have a few: NLM-Gene 11, GNormPlus 35). */
        MAY_DIFFER
    }

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
        // BC5CDR's ID CID D1 D2 and BioRED's ID Association ID1 ID2 Novel: a word where a mention has
        // its start, and never the six fields of a mention with its concept
        String[] f = line.split("\t", -1);
        return f.length >= 3 && f.length <= 5 && RELATION_TYPE.matcher(f[1]).matches()
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

    /**
     * Every document of a PubTator file. A malformed line is an error naming its number: a mention
     * without five fields, with offsets that are not integers, negative, reversed or past the end of
     * its document's text, or (with {@link MentionText#MUST_MATCH}) whose text is not the document's
     * text at its offsets.
     */
    public static List<Annotated> read(BufferedReader in, MentionText mentionText) {
        List<Annotated> docs = new ArrayList<>();
        String id = null;
        String title = null;
        String abstractText = null;
        List<Annotated.Annotation> annotations = new ArrayList<>();
        List<Integer> mentionLines = new ArrayList<>();
        int lineNo = 0;
        try {
            for (String line = in.readLine(); ; line = in.readLine()) {
                lineNo++;
                if (line == null || line.isBlank()) {
                    if (id != null) {
                        Annotated d = new Annotated(id, title, abstractText, annotations);
                        check(d, mentionLines, mentionText);
                        docs.add(d);
                        id = null;
                        title = null;
                        abstractText = null;
                        annotations = new ArrayList<>();
                        mentionLines = new ArrayList<>();
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
                    int start = offset(f[1], lineNo);
                    int end = offset(f[2], lineNo);
                    if (end < start) {
                        throw new IllegalArgumentException(
                                "line " + lineNo + ": the mention ends (" + end + ") before it starts (" + start + ")");
                    }
                    annotations.add(new Annotated.Annotation(start, end, f[3], f[4], f.length > 5 ? f[5] : "-"));
                    mentionLines.add(lineNo);
                    id = id == null ? f[0] : id;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int offset(String field, int lineNo) {
        int value;
        try {
            value = Integer.parseInt(field);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "line " + lineNo + ": offsets must be integers, got \"" + field + "\"", e);
        }
        if (value < 0) {
            throw new IllegalArgumentException("line " + lineNo + ": offsets cannot be negative, got " + value);
        }
        return value;
    }

    /** Each mention within its document's text, and (if asked) equal to it. */
    private static void check(Annotated d, List<Integer> lines, MentionText mentionText) {
        String text = d.text();
        int length = text.codePointCount(0, text.length());
        for (int i = 0; i < lines.size(); i++) {
            Annotated.Annotation a = d.annotations().get(i);
            if (a.end() > length) {
                throw new IllegalArgumentException("line " + lines.get(i) + ": the mention ends at " + a.end()
                        + ", past the end of document " + d.id() + " (" + length + " characters)");
            }
            String there = d.textAt(a);
            if (mentionText == MentionText.MUST_MATCH && !there.equals(a.text())) {
                throw new IllegalArgumentException("line " + lines.get(i) + ": the mention \"" + a.text()
                        + "\" is not the text of document " + d.id() + " at " + a.start() + "-" + a.end()
                        + " (\"" + there + "\"; offsets count code points over title, a space and abstract)");
            }
        }
    }
}
