package dev.bionerstream.bench;

import java.math.BigDecimal;

/**
 * The steady rate a latency run offers, in abstracts per second: a fixed one ({@code 4.5}) or a
 * share of the capacity the bench measured just before ({@code 50%}).
 *
 * @param value abstracts per second, or the percentage of capacity when {@code ofCapacity}
 */
public record OfferedRate(double value, boolean ofCapacity) {
    public OfferedRate {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException("a rate must be a positive number, got " + value);
        }
    }

    /** {@code 4.5} (abstracts/s) or {@code 50%} (of the measured capacity). */
    public static OfferedRate parse(String text) {
        String t = text.trim();
        boolean percent = t.endsWith("%");
        try {
            return new OfferedRate(Double.parseDouble(percent ? t.substring(0, t.length() - 1) : t), percent);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "--rate takes abstracts per second (4.5) or a share of the measured capacity (50%), got '" + text
                            + "'");
        }
    }

    /** Abstracts per second against a measured {@code capacity} (abstracts per second). */
    double perSecond(double capacity) {
        return ofCapacity ? value / 100 * capacity : value;
    }

    @Override
    public String toString() {
        String number = BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
        return ofCapacity ? number + "% of capacity" : number + "/s";
    }
}
