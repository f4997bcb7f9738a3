package dev.bionerstream.job;

import dev.bionerstream.avro.Abstract;
import java.io.IOException;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificDatumReader;

/**
 * Bytes -> {@link Abstract}, as JSON ({@code {"id", "title", "abstract", "journal",
 * "publicationDate", "source", "language"}}) or as binary Avro, then validated.
 */
public final class AbstractParser implements ParseAbstracts.Parser {
    /** Longer texts are refused: a feed record of this size is not an abstract. */
    public static final int MAX_CHARS = 100_000;

    private final boolean avro;
    private transient SpecificDatumReader<Abstract> avroReader;

    public AbstractParser(String format) {
        this.avro = format.equals("avro");
    }

    @Override
    public Abstract parse(byte[] value) throws InvalidRecordException {
        if (value == null) {
            throw new InvalidRecordException("record has no value (tombstone)");
        }
        Abstract a = avro ? fromAvro(value) : JsonAbstracts.read(value);
        if (a.getId() == null || a.getId().isBlank()) {
            throw new InvalidRecordException("field 'id' is missing or blank");
        }
        if (blank(a.getTitle()) && blank(a.getAbstractText())) {
            throw new InvalidRecordException("document " + a.getId() + " has neither title nor abstract text");
        }
        int chars = length(a.getTitle()) + length(a.getAbstractText());
        if (chars > MAX_CHARS) {
            throw new InvalidRecordException("document " + a.getId() + " has " + chars + " chars, more than " + MAX_CHARS);
        }
        return a;
    }

    private Abstract fromAvro(byte[] value) throws InvalidRecordException {
        if (avroReader == null) {
            avroReader = new SpecificDatumReader<>(Abstract.class);
        }
        try {
            return avroReader.read(null, DecoderFactory.get().binaryDecoder(value, null));
        } catch (IOException | RuntimeException e) {
            throw new InvalidRecordException("not a binary Avro Abstract: " + e.getMessage(), e);
        }
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    private static int length(String s) {
        return s == null ? 0 : s.length();
    }
}
