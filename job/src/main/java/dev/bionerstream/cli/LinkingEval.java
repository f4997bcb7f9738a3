package dev.bionerstream.cli;

import dev.bionerstream.engine.Entity;
import dev.bionerstream.eval.LinkedMentions;
import dev.bionerstream.eval.LinkingAccuracy;
import dev.bionerstream.eval.Scores;
import dev.bionerstream.formats.Annotated;
import dev.bionerstream.linking.CompositeMention;
import dev.bionerstream.linking.Concept;
import dev.bionerstream.linking.Curies;
import dev.bionerstream.linking.EntityLinker;
import dev.bionerstream.linking.Link;
import dev.bionerstream.linking.Mention;
import dev.bionerstream.linking.Vocabulary;
import dev.bionerstream.text.DocumentText;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The measures of a linker on a PubTator corpus with concept ids: accuracy@1 on the gold mentions;
 * end to end (the model's mentions, then the linker, as the job runs them) concept-level precision,
 * recall and F1 of each document's id set, and mention-level scores by the HunFlair2 benchmark's
 * rule ({@link LinkedMentions}).
 */
final class LinkingEval {
    /** A concept of a document. */
    record DocumentConcept(String document, String type, String id) {}

    /** What the end-to-end evaluation gives: concept-level and mention-level scores. */
    record EndToEnd(Scores concepts, Scores mentions) {}

    private LinkingEval() {}

    /**
     * Links each document's gold mentions of the mapped types, the document's other gold mentions as
     * context; each takes the link the stream emits, or where that is NIL the best candidate whatever
     * its score (accuracy@1). Returns the strict
     * counts; {@code equivalent} gets the counts where an id the vocabulary declares the same
     * concept as a gold id (MEDIC's alternative ids, MeSH's replacements) counts as that gold id.
     */
    static LinkingAccuracy onGoldMentions(
            List<Annotated> documents,
            Map<String, String> types,
            EntityLinker linker,
            LinkingAccuracy equivalent,
            Consumer<String> misses) {
        LinkingAccuracy accuracy = new LinkingAccuracy();
        EntityLinker best = linker.withMinScore(0);
        for (Annotated d : documents) {
            DocumentText doc = DocumentText.of(d.title(), d.abstractText());
            List<Annotated.Annotation> gold = new ArrayList<>();
            List<Mention> mentions = new ArrayList<>();
            for (Annotated.Annotation a : d.annotations()) {
                String type = types.get(a.type());
                if (type != null) {
                    gold.add(a);
                    mentions.add(new Mention(type, a.text(), doc.charOffset(a.start())));
                }
            }
            List<Link> streamed = linker.link(doc, mentions);
            // the ranking pass only where the stream left a mention NIL
            List<Link> ranked = streamed.stream().anyMatch(Link::isNil) ? best.link(doc, mentions) : streamed;
            for (int i = 0; i < gold.size(); i++) {
                String type = mentions.get(i).type();
                Set<String> ids = new HashSet<>(Curies.of(type, gold.get(i).conceptId()));
                boolean composite = !CompositeMention.parts(gold.get(i).text()).isEmpty();
                // what the stream emits, else the best candidate it left under the minimum score
                boolean under = streamed.get(i).isNil();
                Link link = under ? ranked.get(i) : streamed.get(i);
                List<String> linked = link.concepts().stream().map(Concept::id).toList();
                Vocabulary v = linker.vocabularies().get(type);
                List<String> asGold = linked.stream()
                        .map(id -> v.sameAs(id).stream()
                                .filter(ids::contains)
                                .findFirst()
                                .orElse(id))
                        .toList();
                equivalent.add(type, ids, composite, asGold, under);
                if (!accuracy.add(type, ids, composite, linked, under)) {
                    misses.accept(String.join(
                            "\t",
                            d.id(),
                            type,
                            gold.get(i).text(),
                            String.join("|", ids),
                            link.isNil() ? "-" : link.id(),
                            link.isNil() ? "-" : link.name(),
                            String.format(Locale.ROOT, "%.3f", link.score())));
                }
            }
        }
        return accuracy;
    }

    /**
     * The model's mentions linked, as the job links them: {@code entities.get(i)} are document
     * {@code i}'s mentions, each with the index of its field in {@link DocumentText#fields()} and its
     * offsets in that field.
     */
    static EndToEnd endToEnd(
            List<Annotated> documents,
            Map<String, String> types,
            EntityLinker linker,
            List<List<FieldEntity>> entities) {
        Scores concepts = new Scores();
        Scores mentionLevel = new Scores();
        Set<String> evaluated = new HashSet<>(types.values());
        for (int i = 0; i < documents.size(); i++) {
            Annotated d = documents.get(i);
            DocumentText doc = DocumentText.of(d.title(), d.abstractText());
            Set<DocumentConcept> gold = new LinkedHashSet<>();
            List<LinkedMentions.Linked> goldMentions = new ArrayList<>();
            for (Annotated.Annotation a : d.annotations()) {
                String type = types.get(a.type());
                if (type != null) {
                    List<String> ids = Curies.of(type, a.conceptId());
                    ids.forEach(id -> gold.add(new DocumentConcept(d.id(), type, id)));
                    goldMentions.add(new LinkedMentions.Linked(
                            type, doc.charOffset(a.start()), doc.charOffset(a.end()), Set.copyOf(ids)));
                }
            }
            List<Mention> mentions = entities.get(i).stream()
                    .filter(e -> evaluated.contains(e.entity().type()))
                    .map(e -> new Mention(
                            e.entity().type(),
                            e.entity().text(),
                            doc.fieldStart(e.field()) + e.entity().start()))
                    .toList();
            Set<DocumentConcept> predicted = new LinkedHashSet<>();
            List<LinkedMentions.Linked> predictedMentions = new ArrayList<>();
            List<Link> links = linker.link(doc, mentions);
            for (int m = 0; m < mentions.size(); m++) {
                Mention mention = mentions.get(m);
                Set<String> ids = new LinkedHashSet<>();
                for (Concept c : links.get(m).concepts()) {
                    predicted.add(new DocumentConcept(d.id(), mention.type(), c.id()));
                    ids.add(c.id());
                }
                predictedMentions.add(new LinkedMentions.Linked(mention.type(), mention.start(), mention.end(), ids));
            }
            concepts.add(predicted, gold, DocumentConcept::type);
            LinkedMentions.score(predictedMentions, goldMentions, mentionLevel);
        }
        return new EndToEnd(concepts, mentionLevel);
    }

    /** An entity the engine found in one field of a document. */
    record FieldEntity(int field, Entity entity) {}
}
