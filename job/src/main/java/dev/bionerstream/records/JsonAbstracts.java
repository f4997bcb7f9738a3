package dev.bionerstream.records;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.bionerstream.avro.Abstract;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * JSON record -> {@link Abstract}; every way it can fail is an {@link InvalidRecordException}.
 *
 * <p>A record is one JSON object in UTF-8 (RFC 8259), nothing after it; a leading byte order mark
 * is skipped, as RFC 8259 allows. Duplicate keys are refused: which copy wins would depend on the
 * reader, and for an id that decides where the events go. The id is a string or an integer (PMIDs
 * often come as numbers); other fields are strings, numbers taken as their JSON text. The
 * abstract comes under {@code abstract} or {@code abstractText}, not both. Unknown keys are ignored.
 */
public final class JsonAbstracts {
    private static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build());
    private static final char BYTE_ORDER_MARK = '\uFEFF';

    private JsonAbstracts() {}

    /** The record as this format writes it: null fields left out. */
    public static byte[] write(Abstract a) {
        ObjectNode n = JSON.createObjectNode().put("id", a.getId());
        putIfPresent(n, "title", a.getTitle());
        putIfPresent(n, "abstract", a.getAbstractText());
        putIfPresent(n, "journal", a.getJournal());
        putIfPresent(n, "publicationDate", a.getPublicationDate());
        putIfPresent(n, "source", a.getSource());
        putIfPresent(n, "language", a.getLanguage());
        putIfPresent(n, "revised", a.getRevised());
        return n.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void putIfPresent(ObjectNode n, String key, String value) {
        if (value != null) {
            n.put(key, value);
        }
    }

    public static Abstract read(byte[] value) throws InvalidRecordException {
        JsonNode n = tree(decode(value));
        if (n == null || n.isMissingNode()) {
            throw new InvalidRecordException("record is empty: expected a JSON object");
        }
        if (!n.isObject()) {
            throw new InvalidRecordException("expected a JSON object, got " + n.getNodeType());
        }
        JsonNode abs = n.get("abstract");
        JsonNode abstractText = n.get("abstractText");
        if (present(abs) && present(abstractText)) {
            throw new InvalidRecordException(
                    "both 'abstract' and 'abstractText' are set: which one is the abstract is unclear");
        }
        return Abstract.newBuilder()
                .setId(id(n.get("id")))
                .setTitle(text(n.get("title"), "title"))
                .setAbstractText(present(abs) ? text(abs, "abstract") : text(abstractText, "abstractText"))
                .setJournal(text(n.get("journal"), "journal"))
                .setPublicationDate(text(n.get("publicationDate"), "publicationDate"))
                .setSource(text(n.get("source"), "source"))
                .setLanguage(text(n.get("language"), "language"))
                .setRevised(text(n.get("revised"), "revised"))
                .build();
    }

    private static String decode(byte[] value) throws InvalidRecordException {
        if (looksLikeUtf16Or32(value)) {
            throw new InvalidRecordException(
                    "not UTF-8: starts like UTF-16 or UTF-32 (a byte order mark or a NUL byte); JSON records must be UTF-8");
        }
        String text = StrictUtf8.decode(value, "");
        return !text.isEmpty() && text.charAt(0) == BYTE_ORDER_MARK ? text.substring(1) : text;
    }

    /** Jackson would detect and read these; producers must send UTF-8, so the reason says so. */
    private static boolean looksLikeUtf16Or32(byte[] value) {
        if (value.length < 2) {
            return false;
        }
        int first = value[0] & 0xFF;
        int second = value[1] & 0xFF;
        return first == 0 || second == 0 || first == 0xFE && second == 0xFF || first == 0xFF && second == 0xFE;
    }

    private static JsonNode tree(String text) throws InvalidRecordException {
        try (JsonParser p = JSON.createParser(text)) {
            return tree(p);
        } catch (IOException e) {
            throw new InvalidRecordException("not valid JSON: " + e, e);
        }
    }

    private static JsonNode tree(JsonParser p) throws InvalidRecordException {
        try {
            JsonNode n = JSON.readTree(p);
            JsonLocation end = p.currentLocation();
            if (n != null && somethingFollows(p)) {
                // Two objects in one record, or garbage after one: taking the first would drop the rest silently.
                throw new InvalidRecordException("not valid JSON: content after the JSON object that ends" + at(end));
            }
            return n;
        } catch (JsonProcessingException e) {
            // Limit violations (nesting depth, number or name length) come without a location: the parser has one.
            JsonLocation where = e.getLocation() != null ? e.getLocation() : p.currentLocation();
            throw new InvalidRecordException("not valid JSON: " + e.getOriginalMessage() + at(where), e);
        } catch (IOException | RuntimeException e) {
            throw new InvalidRecordException("not valid JSON: " + e + at(p.currentLocation()), e);
        }
    }

    private static boolean somethingFollows(JsonParser p) {
        try {
            return p.nextToken() != null;
        } catch (IOException e) {
            return true; // what follows does not even tokenize
        }
    }

    private static String at(JsonLocation where) {
        return where == null || where.getLineNr() < 1
                ? ""
                : " at line " + where.getLineNr() + ", column " + where.getColumnNr();
    }

    private static boolean present(JsonNode n) {
        return n != null && !n.isNull();
    }

    private static String id(JsonNode n) throws InvalidRecordException {
        if (!present(n)) {
            throw new InvalidRecordException("field 'id' is missing or blank");
        }
        if (n.isTextual() || n.isIntegralNumber()) {
            return n.asText();
        }
        throw new InvalidRecordException("field 'id' must be a string or an integer, got " + n.getNodeType()
                + (n.isNumber() ? " with a fraction or exponent" : ""));
    }

    private static String text(JsonNode n, String field) throws InvalidRecordException {
        if (!present(n)) {
            return null;
        }
        if (n.isTextual() || n.isNumber()) {
            return n.asText();
        }
        throw new InvalidRecordException("field '" + field + "' must be a string, got " + n.getNodeType());
    }
}
