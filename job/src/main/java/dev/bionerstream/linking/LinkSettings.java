package dev.bionerstream.linking;

import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a linker is built from and how it decides; equal settings share one linker per JVM ({@link
 * Linkers}).
 *
 * @param bundles entity type -> vocabulary bundle ({@link VocabularyFiles#inJar} or a directory)
 * @param replacements entity type -> a user's TSV that takes the place of the type's bundle
 * @param extensions entity type -> a user's TSV whose concepts are added to the type's bundle
 * @param geneSpecies NCBI taxa a gene may belong to, in order of preference; empty: the one species
 *     the document's evidence names for the mention (a gene of a species the vocabularies do not
 *     hold is then NIL)
 * @param minScore below this match score a mention is NIL
 */
public record LinkSettings(
        Map<String, String> bundles,
        Map<String, String> replacements,
        Map<String, String> extensions,
        List<Integer> geneSpecies,
        double minScore)
        implements Serializable {
    /** The types the repository ships a vocabulary for. */
    public static final List<String> SHIPPED_TYPES = List.of("chemical", "disease", "gene", "species");

    public static final double DEFAULT_MIN_SCORE = 0.8;

    public LinkSettings {
        bundles = new TreeMap<>(bundles);
        replacements = new TreeMap<>(replacements);
        extensions = new TreeMap<>(extensions);
        geneSpecies = List.copyOf(geneSpecies);
        if (!(minScore >= 0 && minScore <= 1)) {
            throw new IllegalArgumentException("the minimum link score must be between 0 and 1, got " + minScore);
        }
    }

    /** The entity types these settings give a vocabulary, in name order. */
    public Set<String> types() {
        Set<String> types = new TreeSet<>(bundles.keySet());
        types.addAll(replacements.keySet());
        types.addAll(extensions.keySet());
        return types;
    }

    /** The shipped vocabularies, genes following the document's species. */
    public static LinkSettings shipped() {
        Map<String, String> bundles = new TreeMap<>();
        SHIPPED_TYPES.forEach(t -> bundles.put(t, VocabularyFiles.inJar(t)));
        return new LinkSettings(bundles, Map.of(), Map.of(), List.of(), DEFAULT_MIN_SCORE);
    }
}
