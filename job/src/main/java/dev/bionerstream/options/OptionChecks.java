package dev.bionerstream.options;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.util.TimeUtils;

/**
 * The checks options share, with the one wording users see: the option as they typed it, what it
 * must be, what they gave.
 */
public final class OptionChecks {
    private OptionChecks() {}

    public static int requirePositive(ConfigOption<Integer> option, int value) {
        if (value < 1) {
            throw new IllegalArgumentException("--" + option.key() + " must be >= 1, got " + value);
        }
        return value;
    }

    public static int requireNotNegative(ConfigOption<Integer> option, int value) {
        if (value < 0) {
            throw new IllegalArgumentException("--" + option.key() + " must be >= 0, got " + value);
        }
        return value;
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
                throw new IllegalArgumentException(
                        "--" + option.key() + ": '" + pair + "' is not " + form + " (e.g. " + example + ")");
            }
            out.put(kv[0].trim(), kv[1].trim());
        }
        return out;
    }

    public static Duration requirePositive(ConfigOption<Duration> option, Duration value) {
        if (value == null || value.isZero() || value.isNegative()) {
            throw new IllegalArgumentException("--" + option.key() + " must be a positive duration (e.g. "
                    + TimeUtils.formatWithHighestUnit(option.defaultValue()) + "), got " + value);
        }
        return value;
    }
}
