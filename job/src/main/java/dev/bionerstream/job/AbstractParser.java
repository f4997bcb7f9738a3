package dev.bionerstream.job;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bionerstream.avro.Abstract;
import java.io.IOException;
import java.io.Serializable;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificDatumReader;

/**
 * Bytes -> {@link Abstract}, as JSON ({@code {"id", "title", "abstract", "journal",
 * "publicationDate", "source", "language"}}) or as binary Avro, then validated.
 */
public final class AbstractParser implements Serializable {
    /** Longer texts are refused: a feed record of this size is not an abstract. */
    public static final int MAX_CHARS = 100_000;

    private static final ObjectMapper JSON = new ObjectMapper();
    private final boolean avro;
    private transient SpecificDatumReader<Abstract> avroReader;

    public AbstractParser(String format) {
        this.avro = format.equals("avro");
    }

    public Abstract parse(byte[] value) throws InvalidRecordException {
        if (value == null) {
            throw new InvalidRecordException("record has no value (tombstone)");
        }
        Abstract a = avro ? fromAvro(value) : fromJson(value);
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

    private static Abstract fromJson(byte[] value) throws InvalidRecordException {
        JsonNode n;
        try {
            n = JSON.readTree(value);
        } catch (JsonProcessingException e) {
            throw new InvalidRecordException("not valid JSON: " + e.getOriginalMessage()
                    + " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr(), e);
        } catch (IOException e) {
            throw new InvalidRecordException("not valid JSON: " + e.getMessage(), e);
        }
        if (n == null || !n.isObject()) {
            throw new InvalidRecordException("expected a JSON object, got " + (n == null ? "nothing" : n.getNodeType()));
        }
        JsonNode abs = n.has("abstract") ? n.get("abstract") : n.get("abstractText");
        String id = text(n.get("id"), "id");
        if (id == null) {
            throw new InvalidRecordException("field 'id' is missing or blank");
        }
        return Abstract.newBuilder()
                .setId(id)
                .setTitle(text(n.get("title"), "title"))
                .setAbstractText(text(abs, "abstract"))
                .setJournal(text(n.get("journal"), "journal"))
                .setPublicationDate(text(n.get("publicationDate"), "publicationDate"))
                .setSource(text(n.get("source"), "source"))
                .setLanguage(text(n.get("language"), "language"))
                .build();
    }

    private static String text(JsonNode n, String field) throws InvalidRecordException {
        if (n == null || n.isNull()) {
            return null;
        }
        if (n.isTextual() || n.isNumber()) {
            return n.asText();
        }
        throw new InvalidRecordException("field '" + field + "' must be a string, got " + n.getNodeType());
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    private static int length(String s) {
        return s == null ? 0 : s.length();
    }
}
