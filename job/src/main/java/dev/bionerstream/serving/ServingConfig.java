package dev.bionerstream.serving;

import dev.bionerstream.inference.InferenceOptions;
import java.io.Serializable;
import java.time.Duration;

/**
 * What identifies a shared model in a JVM: the bundle, how it runs and how it batches. Subtasks
 * with equal configs share one session and one batcher.
 *
 * @param bundle bundle directory; null for the bundle in the jar
 */
public record ServingConfig(String bundle, InferenceOptions inference, int batchMaxSize, Duration batchMaxWait)
        implements Serializable {}
