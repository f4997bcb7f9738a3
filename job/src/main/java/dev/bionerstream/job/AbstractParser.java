package dev.bionerstream.job;

import dev.bionerstream.avro.Abstract;
import java.io.IOException;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificDatumReader;

/**
 * Bytes -> {@link Abstract}, as JSON ({@code {"id", "title", "abstract", "journal",
 * "publicationDate", "source", "language"}}) or as binary Avro, then validated.
 *
 * <p>Text is kept as received, except that each unpaired UTF-16 surrogate becomes U+FFFD: the
 * tokenizer cannot take half a character, and a one-for-one replacement keeps entity offsets valid.
 * A record needs text in its title or abstract: whitespace, format and control characters alone
 * (U+00A0, U+200B, U+FEFF...) are none.
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
        if (RecordText.noText(a.getId())) {
            throw new InvalidRecordException("field 'id' is missing or blank");
        }
        a.setTitle(RecordText.repairSurrogates(a.getTitle()));
        a.setAbstractText(RecordText.repairSurrogates(a.getAbstractText()));
        a.setJournal(RecordText.repairSurrogates(a.getJournal()));
        a.setPublicationDate(RecordText.repairSurrogates(a.getPublicationDate()));
        a.setSource(RecordText.repairSurrogates(a.getSource()));
        a.setLanguage(RecordText.repairSurrogates(a.getLanguage()));
        if (RecordText.noText(a.getTitle()) && RecordText.noText(a.getAbstractText())) {
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

    private static int length(String s) {
        return s == null ? 0 : s.length();
    }
}
