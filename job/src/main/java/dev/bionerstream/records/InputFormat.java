package dev.bionerstream.records;

import java.util.Locale;

/** How the input topic's values are written ({@code kafka.input-format}). */
public enum InputFormat {
    /** A UTF-8 JSON object. */
    JSON,
    /** A binary Avro {@code Abstract}, no registry header. */
    AVRO;

    /** As the user writes it. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
