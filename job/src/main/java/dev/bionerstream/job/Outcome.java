package dev.bionerstream.job;

import dev.bionerstream.avro.DeadLetter;
import dev.bionerstream.avro.DocumentEntities;

/** What inference made of one document: its entities, or a dead letter (Flink POJO). */
public class Outcome {
    public DocumentEntities document;
    public DeadLetter deadLetter;

    public Outcome() {}

    public static Outcome of(DocumentEntities d) {
        Outcome o = new Outcome();
        o.document = d;
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
