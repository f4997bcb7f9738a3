package dev.bionerstream.serving;

import dev.bionerstream.inference.InferenceOptions;
import java.io.Serializable;
import java.time.Duration;
import java.util.List;

/**
 * What identifies a shared model in a JVM: the bundle, how it runs and how it batches. Subtasks
 * with equal configs share one session and one batcher.
 *
 * @param bundle bundle directory; null for the bundle in the jar
 * @param entityTypes the types to extract; all of the bundle's when empty
 */
public record ServingConfig(String bundle, List<String> entityTypes, InferenceOptions inference, int batchMaxSize, Duration batchMaxWait)
        implements Serializable {
    public ServingConfig {
        entityTypes = List.copyOf(entityTypes);
    }
}
