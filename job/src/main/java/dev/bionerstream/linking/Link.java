package dev.bionerstream.linking;

import java.util.List;
import java.util.stream.Collectors;

/**
 * What a mention stands for: one concept, several for a composite mention ("breast and ovarian
 * cancer"), or none (NIL: no vocabulary for its type, or no name close enough).
 *
 * @param concepts the concepts, in the mention's order; empty for NIL
 * @param score how well the mention matched, in [0, 1]: 1 for an exact name, the trigram cosine of
 *     an approximate one, the lowest part's for a composite; for NIL the best candidate's (0 if none)
 */
public record Link(List<Concept> concepts, double score) {
    public Link {
        concepts = List.copyOf(concepts);
    }

    public static Link nil(double bestScore) {
        return new Link(List.of(), bestScore);
    }

    public boolean isNil() {
        return concepts.isEmpty();
    }

    /** The concept id; a composite's ids joined by {@code |} as PubTator writes them; null for NIL. */
    public String id() {
        return isNil() ? null : concepts.stream().map(Concept::id).collect(Collectors.joining("|"));
    }

    /** The preferred name, joined like {@link #id()}; null for NIL. */
    public String name() {
        return isNil() ? null : concepts.stream().map(Concept::name).collect(Collectors.joining("|"));
    }
}
