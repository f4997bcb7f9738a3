package dev.bionerstream.kafka;

import dev.bionerstream.avro.DeadLetter;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletionException;
import org.apache.flink.util.OutputTag;

/** The dead-letter side output and the records that go to it. */
public final class DeadLetters {
    public static final OutputTag<DeadLetter> TAG = new OutputTag<>("dead-letters") {};
    public static final String PARSE = "parse";
    public static final String INFERENCE = "inference";
    /** A letter already carries the record: a message quoting it again could push the letter past Kafka's size limit. */
    static final int MAX_MESSAGE_CHARS = 2_000;
    /** Cause chains can loop (initCause on each other, or a getCause override). */
    private static final int MAX_CAUSES = 32;

    private DeadLetters() {}

    /** Never throws, whatever the throwable: a dead letter is the last way out of the job for a record. */
    public static DeadLetter of(
            byte[] original, String topic, int partition, long offset, String stage, Throwable error) {
        Throwable reason = reason(error);
        return DeadLetter.newBuilder()
                .setOriginalBytes(original == null ? null : ByteBuffer.wrap(original))
                .setTopic(topic == null ? "" : topic)
                .setPartition(partition)
                .setOffset(offset)
                .setStage(stage)
                .setErrorClass(reason == null ? "unknown" : reason.getClass().getName())
                .setErrorMessage(describe(reason))
                .setFailedAt(java.time.Instant.now())
                .build();
    }

    /** The first throwable of the chain that says something, past CompletionException wrappers. */
    private static Throwable reason(Throwable error) {
        Throwable t = error;
        for (int i = 0; i < MAX_CAUSES && t != null && (message(t) == null || t instanceof CompletionException); i++) {
            Throwable cause = cause(t);
            if (cause == null) {
                break;
            }
            t = cause;
        }
        return t;
    }

    private static String describe(Throwable reason) {
        if (reason == null) {
            return "no error was given";
        }
        String message = message(reason);
        if (message == null) {
            return reason.getClass().getSimpleName() + " without a message";
        }
        if (message.length() <= MAX_MESSAGE_CHARS) {
            return message;
        }
        int end = MAX_MESSAGE_CHARS - 3;
        return message.substring(0, Character.isHighSurrogate(message.charAt(end - 1)) ? end - 1 : end) + "...";
    }

    private static String message(Throwable t) {
        try {
            String m = t.getMessage();
            return m == null || m.isBlank() ? null : m;
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static Throwable cause(Throwable t) {
        try {
            return t.getCause();
        } catch (RuntimeException e) {
            return null;
        }
    }
}
