package dev.bionerstream.linking;

/**
 * Where a name of a concept comes from, in the order a tie between concepts is broken: the concept
 * an annotated corpus links the name to first (annotators resolved the ambiguity in context: BC5CDR
 * links "dyskinesia" to Dyskinesia, Drug-Induced, not to the descriptor named Dyskinesias), then a
 * concept named exactly so, then one that lists it among its synonyms.
 */
public enum NameSource {
    CORPUS,
    PREFERRED,
    SYNONYM
}
