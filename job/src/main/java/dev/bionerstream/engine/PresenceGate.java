package dev.bionerstream.engine;

import dev.bionerstream.model.BundleGate;
import dev.bionerstream.model.BundleManifest;
import java.util.Locale;
import java.util.Optional;

/**
 * The presence gate as the engine applies it: a sentence is asked about a type only if the highest
 * presence probability of its query-free pass reaches {@code threshold}. MRC costs one model pass
 * per (sentence, type); most sentences hold one type or none, so the gate's one extra pass per
 * sentence saves the passes of the types a sentence lacks, at the F1 cost the bundle records.
 */
public record PresenceGate(double threshold) {
    /** {@code model.gate} values besides a threshold. */
    public static final String BUNDLE = "bundle";

    public static final String ON = "on";
    public static final String OFF = "off";

    public PresenceGate {
        if (!(threshold > 0 && threshold < 1)) {
            throw new IllegalArgumentException(
                    "a presence gate threshold is a probability between 0 and 1, got " + threshold);
        }
    }

    /**
     * The gate {@code setting} asks for on {@code manifest}'s model: {@code bundle} (on when the
     * bundle's measured gate is enabled), {@code on} (the bundle's threshold), {@code off}, or a
     * threshold of its own. Asking for a gate a bundle does not have is an error.
     */
    public static Optional<PresenceGate> resolve(BundleManifest manifest, String setting) {
        String s = checkSetting(setting);
        BundleGate gate = manifest.gate();
        if (s.equals(OFF) || (s.equals(BUNDLE) && (gate == null || !gate.enabled()))) {
            return Optional.empty();
        }
        if (gate == null) {
            throw new IllegalArgumentException("--model.gate " + s + ": the bundle " + manifest.id()
                    + " has no presence gate (export it with model-export's --gate)");
        }
        return Optional.of(
                new PresenceGate(s.equals(BUNDLE) || s.equals(ON) ? gate.threshold() : Double.parseDouble(s)));
    }

    /** {@code setting} normalised, or an error saying what {@code model.gate} takes. */
    public static String checkSetting(String setting) {
        String s = setting.trim().toLowerCase(Locale.ROOT);
        if (s.equals(BUNDLE) || s.equals(ON) || s.equals(OFF)) {
            return s;
        }
        try {
            new PresenceGate(Double.parseDouble(s));
            return s;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "--model.gate must be bundle, on, off or a threshold between 0 and 1, got " + setting);
        }
    }

    /** Whether a type whose highest presence logit in a sentence is {@code logit} is asked. */
    public boolean asks(float logit) {
        return logit >= Math.log(threshold / (1 - threshold));
    }
}
