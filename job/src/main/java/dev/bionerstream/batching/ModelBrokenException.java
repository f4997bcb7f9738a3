package dev.bionerstream.batching;

/**
 * The model failed in a way a retry cannot mend (an {@link Error} from the runtime, such as
 * running out of memory): every pending and later request fails with this, and the job must fail
 * its task so that Flink restarts it with a fresh model, rather than dead-letter good documents.
 */
public final class ModelBrokenException extends IllegalStateException {
    public ModelBrokenException(String message, Throwable cause) {
        super(message, cause);
    }
}
