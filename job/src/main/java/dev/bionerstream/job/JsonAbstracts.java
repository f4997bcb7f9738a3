package dev.bionerstream.job;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bionerstream.avro.Abstract;
import java.io.IOException;

/** JSON record -> {@link Abstract}; every way it can fail is an {@link InvalidRecordException}. */
final class JsonAbstracts {
    private static final ObjectMapper JSON = new ObjectMapper();

    private JsonAbstracts() {}

    static Abstract read(byte[] value) throws InvalidRecordException {
        JsonNode n = tree(value);
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

    private static JsonNode tree(byte[] value) throws InvalidRecordException {
        try (JsonParser p = JSON.createParser(value)) {
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
        return where == null || where.getLineNr() < 1 ? "" : " at line " + where.getLineNr() + ", column " + where.getColumnNr();
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
}
