package dev.bionerstream.records;

import java.nio.charset.StandardCharsets;

/**
 * The rules for a document id, from a record's {@code id} field or from a tombstone's key.
 *
 * <p>The id keys the output records and is hashed into event ids, so it is not repaired but
 * refused when it holds control characters (NUL separates the parts of an event id) or unpaired
 * surrogates (UTF-8 for a Kafka key cannot carry them). It is at most {@value #MAX_ID_BYTES}
 * UTF-8 bytes: OpenSearch's limit for a document id, room for any PMID or DOI, and far below the
 * 32,766-byte limit of the keyword field it is indexed in.
 */
public final class DocumentIds {
    public static final int MAX_ID_BYTES = 512;

    private DocumentIds() {}

    /**
     * The id of the document a tombstone (a record without a value) deletes: its key, held to the
     * rules of a record's id.
     */
    public static String deletedId(byte[] key) throws InvalidRecordException {
        if (key == null) {
            throw new InvalidRecordException(
                    "record has neither value nor key: a tombstone must name the document to delete");
        }
        String id = StrictUtf8.decode(key, "tombstone key is not UTF-8: ");
        check(id);
        return id;
    }

    static void check(String id) throws InvalidRecordException {
        if (RecordText.noText(id)) {
            throw new InvalidRecordException("field 'id' is missing or blank");
        }
        if (RecordText.hasControlCharacter(id)) {
            throw new InvalidRecordException("field 'id' contains a control character");
        }
        if (RecordText.hasUnpairedSurrogate(id)) {
            throw new InvalidRecordException("field 'id' contains an unpaired surrogate");
        }
        int bytes = id.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_ID_BYTES) {
            throw new InvalidRecordException("field 'id' has " + bytes + " UTF-8 bytes, more than " + MAX_ID_BYTES);
        }
    }
}
