package dev.bionerstream.viewer;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The concepts a searched entity stands for: a concept id itself ({@code ncbigene:672}), or every
 * concept the vocabularies name exactly so, so that "paracetamol" finds the abstracts whose
 * "acetaminophen" was linked to the same MeSH descriptor.
 */
final class ConceptNames {
    /** More concepts than this for one name (a gene symbol of many species) are cut, the most preferred kept. */
    static final int MOST = 20;

    private static final Pattern CURIE = Pattern.compile("[a-z][a-z0-9.]*:[^\\s:|]+");

    private final ConceptLookup lookup;

    ConceptNames(ConceptLookup lookup) {
        this.lookup = lookup;
    }

    /** The concept ids {@code entity} stands for, of {@code type} when given (null: any type). */
    List<String> of(String entity, String type) {
        String curie = entity.strip();
        int colon = curie.indexOf(':');
        if (colon > 0) {
            curie = curie.substring(0, colon).toLowerCase(Locale.ROOT) + curie.substring(colon);
        }
        if (CURIE.matcher(curie).matches()) {
            return List.of(curie);
        }
        List<String> ids = lookup.idsNamed(entity, type);
        return ids.size() > MOST ? ids.subList(0, MOST) : ids;
    }
}
