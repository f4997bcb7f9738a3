package dev.bionerstream.batching;

import dev.bionerstream.engine.BatchSize;
import java.time.Duration;

/**
 * How a {@link MicroBatcher} batches: a batch closes at {@code maxSize} windows or when its oldest has
 * waited {@code maxWait} (Triton's max_batch_size / max_queue_delay), holds the windows {@code policy}
 * lets share it, and a request of more than {@code maxWindowsPerRequest} windows is refused at once.
 */
public record BatchSettings(BatchSize maxSize, Duration maxWait, int maxWindowsPerRequest, BatchPolicy policy) {
    public BatchSettings {
        if (maxWindowsPerRequest < 1) {
            throw new IllegalArgumentException("max windows per request must be >= 1, got " + maxWindowsPerRequest);
        }
    }
}
