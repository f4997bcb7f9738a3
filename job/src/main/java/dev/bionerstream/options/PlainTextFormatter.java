package dev.bionerstream.options;

import java.util.EnumSet;
import org.apache.flink.configuration.description.Formatter;
import org.apache.flink.configuration.description.TextElement;

/**
 * Renders a {@code ConfigOption}'s description as plain text for a terminal: Flink ships only an
 * HTML formatter, and a {@code Description}'s own {@code toString()} is its identity.
 */
public final class PlainTextFormatter extends Formatter {
    @Override
    protected void formatLink(StringBuilder out, String link, String description) {
        out.append(description.isEmpty() ? link : description + " (" + link + ")");
    }

    @Override
    protected void formatLineBreak(StringBuilder out) {
        out.append(' ');
    }

    @Override
    protected void formatText(
            StringBuilder out, String format, String[] elements, EnumSet<TextElement.TextStyle> styles) {
        // A plain text() element is its own format string; it may hold a literal '%'.
        out.append(elements.length == 0 ? format : String.format(format, (Object[]) elements));
    }

    @Override
    protected void formatList(StringBuilder out, String[] entries) {
        out.append(String.join("; ", entries));
    }

    @Override
    protected Formatter newInstance() {
        return new PlainTextFormatter();
    }
}
