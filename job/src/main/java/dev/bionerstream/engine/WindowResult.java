package dev.bionerstream.engine;

import dev.bionerstream.inference.WindowLogits;

/** Logits of one window, and how its batch went: size, time queued, time in the model. */
public record WindowResult(WindowLogits logits, int batchSize, long queueNanos, long modelNanos) {}
