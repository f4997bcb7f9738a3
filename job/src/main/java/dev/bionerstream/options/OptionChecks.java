package dev.bionerstream.options;

import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The checks options share, with the one wording users see: the option as they typed it, what it
 * must be, what they gave. Every refused option value goes through {@link #refused}, so each message
 * starts with {@code --KEY}; an option with a fixed set of values is an {@code enumType} read with
 * {@link #oneOf}.
 */
public final class OptionChecks {
    private OptionChecks() {}

    /**
     * A refused value of {@code option}: {@code --KEY} then {@code why}, which says what is wrong and
     * how to fix it (what the option must be, what was given).
     */
    public static IllegalArgumentException refused(ConfigOption<?> option, String why) {
        return new IllegalArgumentException("--" + option.key() + " " + why);
    }

    public static int requirePositive(ConfigOption<Integer> option, int value) {
        if (value < 1) {
            throw refused(option, "must be >= 1, got " + value);
        }
        return value;
    }

    /** {@code zero}: what 0 means for this option, e.g. {@code all cores}. */
    public static int requireNotNegative(ConfigOption<Integer> option, int value, String zero) {
        if (value < 0) {
            throw refused(option, "must be 0 (" + zero + ") or more, got " + value);
        }
        return value;
    }

    public static Duration requirePositive(ConfigOption<Duration> option, Duration value) {
        if (value == null || value.isZero() || value.isNegative()) {
            throw refused(
                    option,
                    "must be a positive duration (e.g. " + OptionText.defaultValue(option) + "), got "
                            + OptionText.shown(value));
        }
        return value;
    }

    public static Duration requireNotNegative(ConfigOption<Duration> option, Duration value) {
        if (value.isNegative()) {
            throw refused(option, "must not be negative, got " + OptionText.shown(value));
        }
        return value;
    }

    public static MemorySize requirePositive(ConfigOption<MemorySize> option, MemorySize value) {
        if (value.getBytes() <= 0) {
            throw refused(option, "must be positive (e.g. " + OptionText.defaultValue(option) + "), got " + value);
        }
        return value;
    }

    /** A required option's value, trimmed; unset or blank fails showing {@code --KEY example}. */
    public static String requireGiven(ConfigOption<String> option, String value, String example) {
        if (value == null || value.isBlank()) {
            throw refused(option, "is required, e.g. --" + option.key() + " " + example);
        }
        return value.trim();
    }

    /**
     * The value of an {@code enumType} option with a default; a value that is none of its constants
     * (Flink reads them by their {@code toString()}, in any case) fails naming every value it takes.
     */
    public static <E extends Enum<E>> E oneOf(ReadableConfig config, ConfigOption<E> option) {
        try {
            return config.get(option);
        } catch (IllegalArgumentException e) {
            List<String> values = Arrays.stream(
                            option.defaultValue().getDeclaringClass().getEnumConstants())
                    .map(OptionText::shown)
                    .toList();
            throw refused(
                    option,
                    "must be " + String.join(", ", values.subList(0, values.size() - 1)) + " or "
                            + values.get(values.size() - 1) + ", got "
                            + config.toMap().get(option.key()));
        }
    }

    /**
     * {@code KEY=VALUE,...} as a map in the given order (unset or blank: empty); a pair that is not
     * {@code form} fails naming the option and showing {@code example}.
     */
    public static Map<String, String> pairs(ConfigOption<String> option, String value, String form, String example) {
        Map<String, String> out = new LinkedHashMap<>();
        if (value == null || value.isBlank()) {
            return out;
        }
        for (String pair : value.split(",")) {
            String[] kv = pair.split("=", 2);
            if (kv.length != 2 || kv[0].isBlank() || kv[1].isBlank()) {
                throw refused(
                        option,
                        "takes " + form + " pairs separated by commas, e.g. " + example + "; got '" + pair.trim()
                                + "'");
            }
            out.put(kv[0].trim(), kv[1].trim());
        }
        return out;
    }
}
