package dev.bionerstream.engine;

import java.io.Serializable;

/**
 * How many windows one model call takes at most: checked once, where it is made, so the batchers
 * that take it need not check again (the job's option {@code batch.max-size} is checked, with a
 * message naming it, before it becomes one).
 */
public record BatchSize(int value) implements Serializable {
    public BatchSize {
        if (value < 1) {
            throw new IllegalArgumentException("a model batch holds at least one window, got " + value);
        }
    }
}
