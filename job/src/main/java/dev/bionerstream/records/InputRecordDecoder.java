package dev.bionerstream.records;

import dev.bionerstream.avro.Abstract;

/**
 * Bytes -> {@link Abstract}, as JSON ({@code {"id", "title", "abstract", "journal",
 * "publicationDate", "source", "language", "revised"}}, see {@link JsonAbstracts}) or as binary Avro (see
 * {@link AvroAbstracts}), then validated. A record that is not a usable abstract gives an
 * {@link InvalidRecordException} saying why, and no other exception: one record must never stop the job.
 *
 * <p>Text is kept as received, markup and control characters included, since entity offsets
 * refer to it. The one repair: each unpaired UTF-16 surrogate becomes U+FFFD, as the tokenizer
 * cannot take half a character, and a one-for-one replacement keeps offsets valid. A record needs
 * text in its title or abstract: whitespace, format and control characters alone (U+00A0, U+200B,
 * U+FEFF...) are none. The id is held to the rules of {@link DocumentIds}.
 */
public final class InputRecordDecoder implements RecordParser {
    /** Longer texts are refused: a feed record of this size is not an abstract. */
    public static final int MAX_CHARS = 100_000;

    /** Journal, date, source, language: indexed as keywords, which refuse terms over 32,766 bytes. */
    public static final int MAX_METADATA_CHARS = 1_000;

    private final boolean avro;
    private transient AvroAbstracts avroReader;

    public InputRecordDecoder(InputFormat format) {
        this.avro = format == InputFormat.AVRO;
    }

    @Override
    public Abstract parse(byte[] value) throws InvalidRecordException {
        if (value == null) {
            throw new InvalidRecordException("record has no value (tombstone)");
        }
        Abstract a = avro ? avroReader().read(value) : JsonAbstracts.read(value);
        DocumentIds.check(a.getId());
        a.setTitle(RecordText.repairSurrogates(a.getTitle()));
        a.setAbstractText(RecordText.repairSurrogates(a.getAbstractText()));
        a.setJournal(metadata("journal", a.getJournal()));
        a.setPublicationDate(metadata("publicationDate", a.getPublicationDate()));
        a.setSource(metadata("source", a.getSource()));
        a.setLanguage(metadata("language", a.getLanguage()));
        a.setRevised(metadata("revised", a.getRevised()));
        if (RecordText.noText(a.getTitle()) && RecordText.noText(a.getAbstractText())) {
            throw new InvalidRecordException("document " + a.getId() + " has neither title nor abstract text");
        }
        int chars = length(a.getTitle()) + length(a.getAbstractText());
        if (chars > MAX_CHARS) {
            throw new InvalidRecordException(
                    "document " + a.getId() + " has " + chars + " chars, more than " + MAX_CHARS);
        }
        return a;
    }

    private AvroAbstracts avroReader() {
        if (avroReader == null) {
            avroReader = new AvroAbstracts();
        }
        return avroReader;
    }

    private static String metadata(String field, String value) throws InvalidRecordException {
        if (value != null && value.length() > MAX_METADATA_CHARS) {
            throw new InvalidRecordException(
                    "field '" + field + "' has " + value.length() + " chars, more than " + MAX_METADATA_CHARS);
        }
        return RecordText.repairSurrogates(value);
    }

    private static int length(String s) {
        return s == null ? 0 : s.length();
    }
}
