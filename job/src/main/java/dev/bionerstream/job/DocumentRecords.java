package dev.bionerstream.job;

import dev.bionerstream.avro.Abstract;
import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.avro.EntityEvent;
import dev.bionerstream.avro.Mention;
import dev.bionerstream.engine.Entity;
import dev.bionerstream.model.BundleManifest;
import dev.bionerstream.model.EntityQuery;
import dev.bionerstream.serving.AnnotatedDocument;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Builds the output records of an annotated document: one DocumentEntities, one EntityEvent per mention. */
public final class DocumentRecords {
    private final BundleManifest model;
    private final Map<String, String> queryIds = new HashMap<>();

    public DocumentRecords(BundleManifest model) {
        this.model = model;
        for (EntityQuery q : model.entityTypes()) {
            queryIds.put(q.name(), q.name() + "@" + EventIds.sha256(q.query()).substring(0, 8));
        }
    }

    /** The document's record; its mentions ordered by field, then offsets. */
    public DocumentEntities document(Abstract a, AnnotatedDocument annotated, Instant now) {
        List<Mention> mentions = new ArrayList<>();
        for (AnnotatedDocument.FieldEntity fe : annotated.entities()) {
            Entity e = fe.entity();
            mentions.add(Mention.newBuilder()
                    .setEventId(EventIds.mention(a.getId(), fe.field().name(), e.start(), e.end(), e.type(), model.id()))
                    .setEntityType(e.type())
                    .setText(e.text())
                    .setStart(e.start())
                    .setEnd(e.end())
                    .setField(fe.field())
                    .setSentenceIndex(e.sentenceIndex())
                    .setScore(e.score())
                    .setQueryId(queryIds.get(e.type()))
                    .build());
        }
        return DocumentEntities.newBuilder()
                .setEventId(EventIds.document(a.getId(), model.id()))
                .setDocumentId(a.getId())
                .setTitle(a.getTitle())
                .setAbstractText(a.getAbstractText())
                .setJournal(a.getJournal())
                .setPublicationDate(a.getPublicationDate())
                .setSource(a.getSource())
                .setModelName(model.name())
                .setModelVersion(model.version())
                .setSentences(annotated.sentences())
                .setProcessingTime(now)
                .setEntities(mentions)
                .build();
    }

    /** The per-mention events of a document record. */
    public static List<EntityEvent> events(DocumentEntities d) {
        List<EntityEvent> out = new ArrayList<>(d.getEntities().size());
        for (Mention m : d.getEntities()) {
            out.add(EntityEvent.newBuilder()
                    .setEventId(m.getEventId())
                    .setDocumentId(d.getDocumentId())
                    .setEntityType(m.getEntityType())
                    .setText(m.getText())
                    .setStart(m.getStart())
                    .setEnd(m.getEnd())
                    .setField(m.getField())
                    .setSentenceIndex(m.getSentenceIndex())
                    .setScore(m.getScore())
                    .setModelName(d.getModelName())
                    .setModelVersion(d.getModelVersion())
                    .setQueryId(m.getQueryId())
                    .setProcessingTime(d.getProcessingTime())
                    .build());
        }
        return out;
    }
}
