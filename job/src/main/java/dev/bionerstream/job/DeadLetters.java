package dev.bionerstream.job;

import dev.bionerstream.avro.DeadLetter;
import java.nio.ByteBuffer;
import org.apache.flink.util.OutputTag;

/** The dead-letter side output and the records that go to it. */
public final class DeadLetters {
    public static final OutputTag<DeadLetter> TAG = new OutputTag<>("dead-letters") {};
    public static final String PARSE = "parse";
    public static final String INFERENCE = "inference";

    private DeadLetters() {}

    public static DeadLetter of(byte[] original, String topic, int partition, long offset, String stage, Throwable error) {
        Throwable cause = error;
        while (cause.getCause() != null && (cause.getMessage() == null || cause instanceof java.util.concurrent.CompletionException)) {
            cause = cause.getCause();
        }
        return DeadLetter.newBuilder()
                .setOriginalBytes(original == null ? null : ByteBuffer.wrap(original))
                .setTopic(topic == null ? "" : topic)
                .setPartition(partition)
                .setOffset(offset)
                .setStage(stage)
                .setErrorClass(cause.getClass().getName())
                .setErrorMessage(String.valueOf(cause.getMessage()))
                .setFailedAt(java.time.Instant.now())
                .build();
    }
}
