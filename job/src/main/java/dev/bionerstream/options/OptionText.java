package dev.bionerstream.options;

import java.time.Duration;
import java.util.Locale;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.util.TimeUtils;

/** How an option's description and default read, the same on a help page and in docs/configuration.md. */
public final class OptionText {
    private OptionText() {}

    public static String description(ConfigOption<?> option) {
        return new PlainTextFormatter().format(option.description());
    }

    /** The default as a user writes it ({@code 20 ms}, {@code avro}), or empty when the option has none. */
    public static String defaultValue(ConfigOption<?> option) {
        return option.hasDefaultValue() ? shown(option.defaultValue()) : "";
    }

    /** A value as a user writes it: {@code 20 ms}, {@code avro}, {@code exactly-once}, {@code 5 mb}. */
    public static String shown(Object value) {
        if (value instanceof Duration d) {
            return TimeUtils.formatWithHighestUnit(d);
        }
        if (value instanceof Enum<?> e) {
            return e.toString().toLowerCase(Locale.ROOT);
        }
        return String.valueOf(value);
    }
}
