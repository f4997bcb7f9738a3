package dev.bionerstream.inference;

import java.util.Locale;

/**
 * How far ONNX Runtime rewrites the graph before running it: one of a fixed set of levels, read
 * once where the config is built, so a misspelt level stops the job at start, not at the first
 * session.
 */
public enum GraphOptimization {
    NONE,
    BASIC,
    EXTENDED,
    ALL;

    /** As the user writes it. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
