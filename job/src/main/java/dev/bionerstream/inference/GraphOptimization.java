package dev.bionerstream.inference;

import java.util.Locale;

/**
 * How far ONNX Runtime rewrites the graph before running it ({@code model.optimization}): read
 * once where the config is built, so a misspelt level stops the job at start, not at the first
 * session.
 */
public enum GraphOptimization {
    NONE,
    BASIC,
    EXTENDED,
    ALL;

    /** {@code none}, {@code basic}, {@code extended} or {@code all}; otherwise an error naming {@code key}. */
    public static GraphOptimization parse(String key, String value) {
        String v = value.trim();
        for (GraphOptimization level : values()) {
            if (level.toString().equalsIgnoreCase(v)) {
                return level;
            }
        }
        throw new IllegalArgumentException("--" + key + " must be none, basic, extended or all, got " + v);
    }

    /** As the user writes it. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
