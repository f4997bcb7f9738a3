package dev.bionerstream.job;

import dev.bionerstream.options.OptionChecks;
import java.io.Serializable;
import java.util.Locale;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;

/**
 * Where the job starts reading its input when it starts without a savepoint
 * ({@code kafka.starting-offsets}): parsed once, so a bad value stops the job at start.
 */
public record StartingOffsets(Kind kind, long timestampMillis) implements Serializable {
    public enum Kind {
        EARLIEST,
        LATEST,
        /** The group's committed offsets; earliest when the group has none. */
        COMMITTED,
        TIMESTAMP
    }

    /** {@code earliest}, {@code latest}, {@code committed} or {@code timestamp:<epoch-millis>}. */
    public static StartingOffsets parse(ConfigOption<String> option, String spec) {
        String s = spec.trim().toLowerCase(Locale.ROOT);
        if (s.matches("timestamp:\\d+")) {
            return new StartingOffsets(Kind.TIMESTAMP, Long.parseLong(s.substring("timestamp:".length())));
        }
        return switch (s) {
            case "earliest" -> new StartingOffsets(Kind.EARLIEST, 0);
            case "latest" -> new StartingOffsets(Kind.LATEST, 0);
            case "committed" -> new StartingOffsets(Kind.COMMITTED, 0);
            default -> throw OptionChecks.refused(
                    option, "must be earliest, latest, committed or timestamp:<epoch-millis>, got " + spec);
        };
    }

    public OffsetsInitializer initializer() {
        return switch (kind) {
            case EARLIEST -> OffsetsInitializer.earliest();
            case LATEST -> OffsetsInitializer.latest();
            case COMMITTED -> OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST);
            case TIMESTAMP -> OffsetsInitializer.timestamp(timestampMillis);
        };
    }

    /** As the user writes it. */
    @Override
    public String toString() {
        return kind == Kind.TIMESTAMP
                ? "timestamp:" + timestampMillis
                : kind.name().toLowerCase(Locale.ROOT);
    }
}
