package dev.bionerstream.engine;

import java.io.Serializable;

/**
 * How many windows one model call takes at most ({@code batch.max-size}, {@code --batch-size}):
 * checked once, where the config is built, so the batchers that take it need not check again.
 */
public record BatchSize(int value) implements Serializable {
    /** The option that sets it, named in the error. */
    public static final String KEY = "batch.max-size";

    public BatchSize {
        if (value < 1) {
            throw new IllegalArgumentException("--" + KEY + " must be >= 1, got " + value);
        }
    }
}
