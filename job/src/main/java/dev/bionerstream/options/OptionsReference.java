package dev.bionerstream.options;

import java.util.List;
import org.apache.flink.configuration.ConfigOption;

/**
 * The reference table of a group of options, as the docs carry it between {@value #BEGIN} and
 * {@value #END} lines (OptionsReferenceTest keeps each copy equal to the options).
 */
public final class OptionsReference {
    public static final String BEGIN = "<!-- options: ";
    public static final String END = "<!-- end of options -->";

    private OptionsReference() {}

    public static String markdown(List<ConfigOption<?>> options) {
        StringBuilder sb = new StringBuilder("| key | default | description |\n|---|---|---|\n");
        for (ConfigOption<?> o : options) {
            String def = OptionText.defaultValue(o);
            sb.append("| `")
                    .append(o.key())
                    .append("` | ")
                    .append(def.isEmpty() ? "" : "`" + def + "`")
                    .append(" | ")
                    .append(cell(OptionText.description(o)))
                    .append(" |\n");
        }
        return sb.toString();
    }

    /** Plain text in a table cell: a bar would end the cell, {@code <dir>} would read as a tag. */
    private static String cell(String text) {
        return text.replace("|", "\\|").replace("<", "&lt;").replace("*", "\\*");
    }
}
