package dev.bionerstream.cli;

import dev.bionerstream.engine.Entity;
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
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The two measures of a linker on a PubTator corpus with concept ids: accuracy@1 on the gold
 * mentions, and concept-level precision, recall and F1 of each document's id set end to end (the
 * model's mentions, then the linker).
 */
final class LinkingEval {
    /** A concept of a document. */
    record DocumentConcept(String document, String type, String id) {}

    private LinkingEval() {}

    /**
     * Links each document's gold mentions of the mapped types, the document's other gold mentions as
     * context; each takes its best candidate whatever its score (accuracy@1). Returns the strict
     * counts; {@code equivalent} gets the counts where an id the vocabulary declares the same
     * concept as a gold id (MEDIC's alternative ids) counts as that gold id.
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
            List<Annotated.Annotation> gold = new ArrayList<>();
            List<Mention> mentions = new ArrayList<>();
            for (Annotated.Annotation a : d.annotations()) {
                String type = types.get(a.type());
                if (type != null) {
                    gold.add(a);
                    mentions.add(new Mention(type, a.text(), a.start()));
                }
            }
            List<Link> links = best.link(d.text(), mentions);
            for (int i = 0; i < gold.size(); i++) {
                String type = mentions.get(i).type();
                Set<String> ids = new HashSet<>(Curies.of(type, gold.get(i).conceptId()));
                boolean composite = !CompositeMention.parts(gold.get(i).text()).isEmpty();
                Link link = links.get(i);
                boolean under = link.score() < linker.settings().minScore();
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

    /** Concept-level scores: {@code entities} are the model's mentions in each document's {@link Annotated#text}. */
    static Scores endToEnd(
            List<Annotated> documents, Map<String, String> types, EntityLinker linker, List<List<Entity>> entities) {
        Scores scores = new Scores();
        Set<String> evaluated = new HashSet<>(types.values());
        for (int i = 0; i < documents.size(); i++) {
            Annotated d = documents.get(i);
            Set<DocumentConcept> gold = new LinkedHashSet<>();
            for (Annotated.Annotation a : d.annotations()) {
                String type = types.get(a.type());
                if (type != null) {
                    Curies.of(type, a.conceptId()).forEach(id -> gold.add(new DocumentConcept(d.id(), type, id)));
                }
            }
            List<Mention> mentions = entities.get(i).stream()
                    .filter(e -> evaluated.contains(e.type()))
                    .map(e -> new Mention(e.type(), e.text(), e.start()))
                    .toList();
            Set<DocumentConcept> predicted = new LinkedHashSet<>();
            List<Link> links = linker.link(d.text(), mentions);
            for (int m = 0; m < mentions.size(); m++) {
                for (Concept c : links.get(m).concepts()) {
                    predicted.add(new DocumentConcept(d.id(), mentions.get(m).type(), c.id()));
                }
            }
            scores.add(predicted, gold, DocumentConcept::type);
        }
        return scores;
    }
}
