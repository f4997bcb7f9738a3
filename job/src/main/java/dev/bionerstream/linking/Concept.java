package dev.bionerstream.linking;

/**
 * One concept of a vocabulary.
 *
 * @param id a Bioregistry CURIE ({@code mesh:D009270}, {@code ncbigene:672}, {@code ncbitaxon:9606})
 * @param name its preferred name
 * @param taxon the NCBI taxon a gene belongs to; 0 when unknown or not a gene
 * @param weight a prior that breaks ties between concepts sharing a name (higher first)
 */
public record Concept(String id, String name, int taxon, long weight) {}
