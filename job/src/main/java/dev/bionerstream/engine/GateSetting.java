package dev.bionerstream.engine;

import java.io.Serializable;
import java.util.Locale;

/**
 * The presence gate setting, parsed once where the config is built: {@link Kind#BUNDLE} (on
 * when the bundle's measured gate is enabled), {@link Kind#ON} (the bundle's threshold),
 * {@link Kind#OFF}, or a {@link Kind#THRESHOLD} of its own. {@link PresenceGate#resolve} applies it
 * to a bundle.
 */
public record GateSetting(Kind kind, double threshold) implements Serializable {
    public enum Kind {
        BUNDLE,
        ON,
        OFF,
        THRESHOLD
    }

    public static final GateSetting BUNDLE = new GateSetting(Kind.BUNDLE, 0);
    public static final GateSetting ON = new GateSetting(Kind.ON, 0);
    public static final GateSetting OFF = new GateSetting(Kind.OFF, 0);

    public GateSetting {
        if (kind == Kind.THRESHOLD) {
            new PresenceGate(threshold); // the range check the gate itself applies
        } else if (threshold != 0) {
            throw new IllegalArgumentException("only a threshold setting has a threshold, got " + kind);
        }
    }

    public static GateSetting threshold(double threshold) {
        return new GateSetting(Kind.THRESHOLD, threshold);
    }

    /**
     * {@code bundle}, {@code on}, {@code off} or a threshold in (0, 1), any case and spacing; otherwise a
     * {@link RefusedSettingException} for the caller to word.
     */
    public static GateSetting parse(String setting) {
        String s = setting.trim().toLowerCase(Locale.ROOT);
        for (GateSetting named : new GateSetting[] {BUNDLE, ON, OFF}) {
            if (s.equals(named.toString())) {
                return named;
            }
        }
        try {
            return threshold(Double.parseDouble(s));
        } catch (IllegalArgumentException e) {
            throw new RefusedSettingException(
                    RefusedSettingException.Setting.GATE,
                    "must be bundle, on, off or a threshold between 0 and 1, got " + setting);
        }
    }

    /** As the user writes it. */
    @Override
    public String toString() {
        return kind == Kind.THRESHOLD ? Double.toString(threshold) : kind.name().toLowerCase(Locale.ROOT);
    }
}
