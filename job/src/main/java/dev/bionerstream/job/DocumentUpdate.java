package dev.bionerstream.job;

import dev.bionerstream.avro.DocumentEntities;

/**
 * One change to the documents topic and the search index: a document's entities, or its deletion
 * ({@code document} null), which is a tombstone on the topic and a delete in the index (Flink POJO).
 */
public class DocumentUpdate {
    public String documentId;
    /** The record's event id: the search-index document id. */
    public String eventId;

    public DocumentEntities document;

    public DocumentUpdate() {}

    public static DocumentUpdate of(DocumentEntities d) {
        DocumentUpdate u = new DocumentUpdate();
        u.documentId = d.getDocumentId();
        u.eventId = d.getEventId();
        u.document = d;
        return u;
    }

    public static DocumentUpdate deletion(String documentId, String eventId) {
        DocumentUpdate u = new DocumentUpdate();
        u.documentId = documentId;
        u.eventId = eventId;
        return u;
    }

    public boolean isDeletion() {
        return document == null;
    }
}
