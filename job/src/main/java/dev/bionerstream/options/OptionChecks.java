package dev.bionerstream.options;

import java.time.Duration;
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

    public static Duration requirePositive(ConfigOption<Duration> option, Duration value) {
        if (value == null || value.isZero() || value.isNegative()) {
            throw new IllegalArgumentException("--" + option.key() + " must be a positive duration (e.g. "
                    + TimeUtils.formatWithHighestUnit(option.defaultValue()) + "), got " + value);
        }
        return value;
    }
}
