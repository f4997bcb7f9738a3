package dev.bionerstream.pubmed;

import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * The plain text of a PubMed text element with inline markup ({@code <i>}, {@code <b>}, {@code
 * <sub>}, {@code <sup>}, MathML...). PubMed strips the spaces around inline tags ("at
 * the<i>TERT</i>gene"), so a tag boundary between two letters or digits becomes a space; {@code
 * sub} and {@code sup} stay glued, as they belong to their word (H<sub>2</sub>O, r<sup>2</sup>).
 * MathML is reduced to its tokens separated by spaces. Runs of white space become one space.
 */
final class InlineText {
    private InlineText() {}

    /** Reads from the start tag the reader is on to its end tag, which it leaves the reader on. */
    static String read(XMLStreamReader xml) throws XMLStreamException {
        StringBuilder out = new StringBuilder();
        boolean boundary = false;
        int depth = 1;
        int mathDepth = 0;
        while (depth > 0) {
            int event = xml.next();
            switch (event) {
                case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE -> {
                    String text = xml.getText();
                    boolean separate = mathDepth > 0 ? !out.isEmpty() : joins(out, text);
                    if (boundary && separate) {
                        out.append(' ');
                    }
                    boundary = false;
                    out.append(text);
                }
                case XMLStreamConstants.START_ELEMENT -> {
                    depth++;
                    String name = xml.getLocalName();
                    mathDepth += mathDepth > 0 || name.equals("math") ? 1 : 0;
                    boundary |= mathDepth > 0 || !glued(name);
                }
                case XMLStreamConstants.END_ELEMENT -> {
                    depth--;
                    boundary |= mathDepth > 0 || depth > 0 && !glued(xml.getLocalName());
                    mathDepth -= mathDepth > 0 ? 1 : 0;
                }
                default -> {}
            }
        }
        return out.toString().replaceAll("\\s+", " ").trim();
    }

    private static boolean glued(String element) {
        return element.equals("sub") || element.equals("sup");
    }

    /** Whether the text so far and the next character would run into one word. */
    private static boolean joins(StringBuilder out, String next) {
        return !out.isEmpty()
                && !next.isEmpty()
                && Character.isLetterOrDigit(out.charAt(out.length() - 1))
                && Character.isLetterOrDigit(next.charAt(0));
    }
}
