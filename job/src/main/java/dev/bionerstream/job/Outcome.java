package dev.bionerstream.job;

import dev.bionerstream.avro.DeadLetter;
import dev.bionerstream.avro.DocumentEntities;

/** What inference made of one record: a document update (its entities, or its deletion), or a dead letter (Flink POJO). */
public class Outcome {
    public DocumentUpdate update;
    public DeadLetter deadLetter;

    public Outcome() {}

    public static Outcome of(DocumentEntities d) {
        Outcome o = new Outcome();
        o.update = DocumentUpdate.of(d);
        return o;
    }

    public static Outcome deleted(String documentId, String eventId) {
        Outcome o = new Outcome();
        o.update = DocumentUpdate.deletion(documentId, eventId);
        return o;
    }

    public static Outcome failed(DeadLetter d) {
        Outcome o = new Outcome();
        o.deadLetter = d;
        return o;
    }

    public boolean isFailed() {
        return deadLetter != null;
    }
}
