package dev.bionerstream.engine;

import dev.bionerstream.model.BundleGate;
import dev.bionerstream.model.BundleManifest;
import java.util.Optional;

/**
 * The presence gate as the engine applies it: a sentence is asked about a type only if the highest
 * presence probability of its query-free pass reaches {@code threshold}. MRC costs one model pass
 * per (sentence, type); most sentences hold one type or none, so the gate's one extra pass per
 * sentence saves the passes of the types a sentence lacks, at the F1 cost the bundle records.
 */
public record PresenceGate(double threshold) {
    public PresenceGate {
        if (!(threshold > 0 && threshold < 1)) {
            throw new IllegalArgumentException(
                    "a presence gate threshold is a probability between 0 and 1, got " + threshold);
        }
    }

    /**
     * The gate {@code setting} asks for on {@code manifest}'s model: none when off, or when the
     * setting defers to a bundle whose measured gate is not enabled. Asking for a gate a bundle
     * does not have is an error.
     */
    public static Optional<PresenceGate> resolve(BundleManifest manifest, GateSetting setting) {
        BundleGate gate = manifest.gate();
        return switch (setting.kind()) {
            case OFF -> Optional.empty();
            case BUNDLE -> gate != null && gate.enabled()
                    ? Optional.of(new PresenceGate(gate.threshold()))
                    : Optional.empty();
            case ON -> Optional.of(
                    new PresenceGate(present(gate, manifest, setting).threshold()));
            case THRESHOLD -> {
                present(gate, manifest, setting);
                yield Optional.of(new PresenceGate(setting.threshold()));
            }
        };
    }

    private static BundleGate present(BundleGate gate, BundleManifest manifest, GateSetting setting) {
        if (gate == null) {
            throw new RefusedSettingException(
                    RefusedSettingException.Setting.GATE,
                    setting + ": the bundle " + manifest.id()
                            + " has no presence gate (export it with model-export's --gate)");
        }
        return gate;
    }

    /** Whether a type whose highest presence logit in a sentence is {@code logit} is asked. */
    public boolean asks(float logit) {
        return logit >= Math.log(threshold / (1 - threshold));
    }
}
