"""Vocabulary bundles for the entity linker (chemical, disease, gene, species), built from the public
source files in ../vocabularies/sources and the training splits of ../corpora/linking."""
