package dev.bionerstream.records;

import java.util.Locale;

/** How the input topic's values are written ({@code kafka.input-format}). */
public enum InputFormat {
    /** A UTF-8 JSON object. */
    JSON,
    /** A binary Avro {@code Abstract}, no registry header. */
    AVRO;

    public static InputFormat parse(String key, String value) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "json" -> JSON;
            case "avro" -> AVRO;
            default -> throw new IllegalArgumentException("--" + key + " must be json or avro, got " + value);
        };
    }
}
