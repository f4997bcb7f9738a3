package dev.bionerstream.linking;

/** A concept a name may stand for, how the name was found in the vocabulary, and how well it matched (0-1]. */
public record Candidate(Concept concept, NameSource source, double score) {}
