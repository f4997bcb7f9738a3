package dev.bionerstream.job;

import dev.bionerstream.avro.Abstract;
import dev.bionerstream.avro.ConceptLink;
import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.avro.EntityEvent;
import dev.bionerstream.avro.Mention;
import dev.bionerstream.avro.MentionLinks;
import dev.bionerstream.avro.TextField;
import dev.bionerstream.engine.Entity;
import dev.bionerstream.engine.Extraction;
import dev.bionerstream.linking.EntityLinker;
import dev.bionerstream.linking.Link;
import dev.bionerstream.linking.Vocabulary;
import dev.bionerstream.model.BundleManifest;
import dev.bionerstream.model.EntityQuery;
import dev.bionerstream.text.DocumentText;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the output records of an annotated document: one DocumentEntities, its mentions linked to
 * concepts, and one EntityEvent per mention.
 */
public final class DocumentRecords {
    private final BundleManifest model;
    private final Map<String, String> queryIds = new HashMap<>();

    public DocumentRecords(BundleManifest model) {
        this.model = model;
        for (EntityQuery q : model.entityTypes()) {
            queryIds.put(q.name(), q.name() + "@" + EventIds.sha256(q.query()).substring(0, 8));
        }
    }

    /** The fields given to the engine, in order: {@code extraction.entities().get(i)} belongs to {@code FIELDS.get(i)}. */
    public static final List<TextField> FIELDS = List.of(TextField.TITLE, TextField.ABSTRACT);

    /** The document the engine and the linker read for {@code a}: its fields in the order of {@link #FIELDS}. */
    public static DocumentText text(Abstract a) {
        return DocumentText.of(a.getTitle(), a.getAbstractText());
    }

    /** The id of the document's record, and of its search-index document, for this model. */
    public String eventId(String documentId) {
        return EventIds.document(documentId, model.id());
    }

    /** The document's record from the extraction of its {@link #FIELDS}; its mentions ordered by field, then offsets. */
    public DocumentEntities document(Abstract a, Extraction extraction, Instant now) {
        List<Mention> mentions = new ArrayList<>();
        for (int f = 0; f < FIELDS.size(); f++) {
            for (Entity e : extraction.entities().get(f)) {
                mentions.add(mention(a, FIELDS.get(f), e));
            }
        }
        return DocumentEntities.newBuilder()
                .setEventId(eventId(a.getId()))
                .setDocumentId(a.getId())
                .setTitle(a.getTitle())
                .setAbstractText(a.getAbstractText())
                .setJournal(a.getJournal())
                .setPublicationDate(a.getPublicationDate())
                .setSource(a.getSource())
                .setModelName(model.name())
                .setModelVersion(model.version())
                .setSentences(extraction.sentences().stream()
                        .mapToInt(Integer::intValue)
                        .sum())
                .setProcessingTime(now)
                .setEntities(mentions)
                .build();
    }

    private Mention mention(Abstract a, TextField field, Entity e) {
        return Mention.newBuilder()
                .setEventId(EventIds.mention(a.getId(), field.name(), e.start(), e.end(), e.type(), model.id()))
                .setEntityType(e.type())
                .setText(e.text())
                .setStart(e.start())
                .setEnd(e.end())
                .setField(field)
                .setSentenceIndex(e.sentenceIndex())
                .setScore(e.score())
                .setQueryId(queryIds.get(e.type()))
                .build();
    }

    /**
     * The record with its mentions linked to concepts ({@code links}, one per mention, in order): the
     * document's title and abstract are read as one {@link DocumentText} for its abbreviations and
     * species. A mention of a type without a vocabulary gets a link of nulls; a NIL one its vocabulary
     * and best score.
     */
    public static DocumentEntities linked(DocumentEntities d, EntityLinker linker) {
        DocumentText doc = DocumentText.of(d.getTitle(), d.getAbstractText());
        List<dev.bionerstream.linking.Mention> mentions =
                new ArrayList<>(d.getEntities().size());
        for (Mention m : d.getEntities()) {
            int field = FIELDS.indexOf(m.getField());
            mentions.add(new dev.bionerstream.linking.Mention(
                    m.getEntityType(), m.getText(), m.getStart() + doc.fieldStart(field)));
        }
        List<Link> found = linker.link(doc, mentions);
        List<ConceptLink> links = new ArrayList<>(found.size());
        for (int i = 0; i < found.size(); i++) {
            Vocabulary v = linker.vocabularies().get(mentions.get(i).type());
            Link l = found.get(i);
            links.add(
                    v == null
                            ? new ConceptLink(null, null, null, null)
                            : new ConceptLink(l.id(), l.name(), l.score(), v.lineage()));
        }
        return DocumentEntities.newBuilder(d).setLinks(links).build();
    }

    /** The per-mention events of a document record. */
    public static List<EntityEvent> events(DocumentEntities d) {
        List<EntityEvent> out = new ArrayList<>(d.getEntities().size());
        for (int i = 0; i < d.getEntities().size(); i++) {
            Mention m = d.getEntities().get(i);
            ConceptLink link = MentionLinks.of(d, i);
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
                    .setConceptId(link == null ? null : link.getConceptId())
                    .setConceptName(link == null ? null : link.getConceptName())
                    .setLinkScore(link == null ? null : link.getLinkScore())
                    .setVocabulary(link == null ? null : link.getVocabulary())
                    .build());
        }
        return out;
    }
}
