package dev.bionerstream.cli;

import dev.bionerstream.avro.ConceptLink;
import dev.bionerstream.avro.DeadLetter;
import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.avro.Mention;
import dev.bionerstream.avro.MentionLinks;
import dev.bionerstream.model.BundleManifest;
import dev.bionerstream.model.EntityQuery;
import dev.bionerstream.serving.ModelRoutes;
import dev.bionerstream.serving.ServingConfig;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the demo prints at the end: the counts, then each model with the languages it serves and
 * every one of its entity types, found or not, with its most mentioned concepts; examples with
 * their offsets and concepts (one per model and type
 * first), the dead letters and the throughput. Grouped by model because each model has
 * types of its own: the Spanish model's {@code normalizable} is no English type.
 */
final class DemoSummary {
    private static final int EXAMPLES = 8;
    private static final double CONFIDENT = 0.9;
    private static final int TOP_CONCEPTS = 3;

    /**
     * A served model as the summary names it.
     *
     * @param id the bundle's name:version, as the documents carry it
     * @param languages the records it reads, in words
     * @param types its entity types, in the bundle's order
     */
    record Model(String id, String languages, List<String> types) {}

    private DemoSummary() {}

    /**
     * The models of {@code routes}, the default first, each with the languages it reads. {@code
     * englishDefault}: the default is the English model (the jar's bundle or its int8 twin, not a
     * directory the user named).
     */
    static List<Model> models(ModelRoutes routes, boolean englishDefault) {
        Map<ServingConfig, List<String>> languages = new LinkedHashMap<>();
        String others = "every language without a model of its own";
        languages.put(
                routes.defaultModel(), new ArrayList<>(List.of(englishDefault ? "English and " + others : others)));
        routes.byLanguage().forEach((language, model) -> languages
                .computeIfAbsent(model, m -> new ArrayList<>())
                .add(Locale.forLanguageTag(language).getDisplayLanguage(Locale.ENGLISH) + " (" + language + ")"));
        List<Model> models = new ArrayList<>();
        languages.forEach((model, names) -> {
            BundleManifest manifest = model.loadBundle().manifest();
            List<String> types = model.entityTypes().isEmpty()
                    ? manifest.entityTypes().stream().map(EntityQuery::name).toList()
                    : model.entityTypes();
            models.add(new Model(manifest.id(), String.join(", ", names), types));
        });
        return models;
    }

    static String of(List<Model> models, List<DocumentEntities> docs, List<DeadLetter> dead, double seconds) {
        int sentences = docs.stream().mapToInt(DocumentEntities::getSentences).sum();
        int entities = docs.stream().mapToInt(d -> d.getEntities().size()).sum();
        StringBuilder sb = new StringBuilder(String.format(
                "%nabstracts %d, sentences %d, entities %d, dead letters %d%n",
                docs.size(), sentences, entities, dead.size()));
        for (Model m : models) {
            sb.append(model(m, docs.stream().filter(d -> id(d).equals(m.id())).toList()));
        }
        sb.append("examples:\n");
        int typeWidth = models.stream()
                .flatMap(m -> m.types().stream())
                .mapToInt(String::length)
                .max()
                .orElse(0);
        examples(docs, typeWidth).forEach(e -> sb.append(e).append('\n'));
        if (!dead.isEmpty()) {
            sb.append(String.format(
                    "dead letters (the demo sends %d malformed records on purpose: each is refused with its reason, "
                            + "and the stream goes on):%n",
                    DemoCommand.BAD_RECORDS.size()));
        }
        dead.forEach(d -> sb.append(
                String.format("  %s@%d: %s: %s%n", d.getTopic(), d.getOffset(), d.getStage(), d.getErrorMessage())));
        sb.append(String.format(
                "throughput: %.1f abstracts/s, %.1f sentences/s (%.1f s from first record to last output, checkpoint commits included)%n",
                docs.size() / seconds, sentences / seconds, seconds));
        return sb.toString();
    }

    /** The model's line, then a line per type with its count. */
    private static String model(Model m, List<DocumentEntities> docs) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        m.types().forEach(t -> counts.put(t, 0));
        docs.forEach(d -> d.getEntities().forEach(e -> counts.merge(e.getEntityType(), 1, Integer::sum)));
        int width = counts.keySet().stream().mapToInt(String::length).max().orElse(0);
        StringBuilder sb = new StringBuilder(String.format(
                "model %s, for %s: %d documents, %d entities%n",
                m.id(),
                m.languages(),
                docs.size(),
                counts.values().stream().mapToInt(Integer::intValue).sum()));
        Map<String, List<String>> concepts = topConcepts(docs);
        counts.forEach((t, n) -> {
            sb.append(String.format("  %-" + width + "s %6d%n", t, n));
            concepts.getOrDefault(t, List.of())
                    .forEach(c -> sb.append("    ").append(c).append('\n'));
        });
        return sb.toString();
    }

    /** A linked concept as the summary counts it. */
    private record Concept(String id, String name, List<String> forms) {}

    /** By type, its most mentioned concepts: id, name, mentions, and the distinct texts that named it. */
    private static Map<String, List<String>> topConcepts(List<DocumentEntities> docs) {
        Map<String, Map<String, Concept>> byType = new LinkedHashMap<>();
        for (DocumentEntities d : docs) {
            for (int i = 0; i < d.getEntities().size(); i++) {
                Mention m = d.getEntities().get(i);
                ConceptLink link = MentionLinks.of(d, i);
                if (link != null && link.getConceptId() != null) {
                    byType.computeIfAbsent(m.getEntityType(), t -> new LinkedHashMap<>())
                            .computeIfAbsent(
                                    link.getConceptId(),
                                    id -> new Concept(id, link.getConceptName(), new ArrayList<>()))
                            .forms()
                            .add(m.getText().toLowerCase(Locale.ROOT));
                }
            }
        }
        Map<String, List<String>> out = new LinkedHashMap<>();
        byType.forEach((type, concepts) -> out.put(
                type,
                concepts.values().stream()
                        .sorted(Comparator.comparingInt(
                                        (Concept c) -> -c.forms().size())
                                .thenComparing(Concept::id))
                        .limit(TOP_CONCEPTS)
                        .map(c -> String.format(
                                "%s %s: %d mentions, %d surface forms",
                                c.id(), c.name(), c.forms().size(), new HashSet<>(c.forms()).size()))
                        .toList()));
        return out;
    }

    /** Confident mentions, at most one per model and type until there are {@value #EXAMPLES}, then any. */
    private static List<String> examples(List<DocumentEntities> docs, int typeWidth) {
        Map<String, String> oneEach = new LinkedHashMap<>();
        List<String> more = new ArrayList<>();
        for (DocumentEntities d : docs) {
            for (int i = 0; i < d.getEntities().size(); i++) {
                Mention m = d.getEntities().get(i);
                ConceptLink link = MentionLinks.of(d, i);
                if (m.getScore() > CONFIDENT) {
                    String line = String.format(
                            "  %-" + typeWidth + "s %-40s %s %s [%d,%d) %.3f %s%s",
                            m.getEntityType(),
                            '"' + m.getText() + '"',
                            d.getDocumentId(),
                            m.getField(),
                            m.getStart(),
                            m.getEnd(),
                            m.getScore(),
                            id(d),
                            link == null || link.getConceptId() == null
                                    ? ""
                                    : " -> " + link.getConceptId() + " " + link.getConceptName());
                    if (oneEach.putIfAbsent(id(d) + " " + m.getEntityType(), line) != null) {
                        more.add(line);
                    }
                }
            }
        }
        List<String> examples = new ArrayList<>(oneEach.values());
        examples.addAll(more);
        return examples.subList(0, Math.min(EXAMPLES, examples.size()));
    }

    private static String id(DocumentEntities d) {
        return d.getModelName() + ":" + d.getModelVersion();
    }
}
