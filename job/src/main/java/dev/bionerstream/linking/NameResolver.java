package dev.bionerstream.linking;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the concept(s) of one name in one vocabulary, for one mention's context: the species its
 * genes should be of and the linker's settings. See {@link EntityLinker} for the order of the steps.
 */
final class NameResolver {
    private static final int NEAREST = 10;
    /**
     * A gene's nearest names are read further: most of them are other species' (NCBI Gene names the
     * human gene "dystrophin" and the mouse one "dystrophin, muscular dystrophy").
     */
    private static final int NEAREST_GENES = 60;
    /**
     * The gene bundle's weight of a protein-coding gene (1000 plus its number of names): a mention
     * names a protein-coding gene rather than a non-coding one that shares the name ("PAR1" is F2r,
     * the thrombin receptor, not the imprinted transcript Par1).
     */
    private static final long PROTEIN_CODING = 1000;

    /** "hGR", "mTert": a species' initial before a gene's symbol, read past when the whole is no name. */
    private static final Pattern SPECIES_PREFIX = Pattern.compile("[hm][A-Z][A-Za-z0-9-]+");

    /** A scientific name below the species: "Zea mays subsp. mays", "Brassica oleracea var. italica". */
    private static final Pattern INFRASPECIFIC = Pattern.compile("(\\S+ \\S+) (?:subsp|ssp|var|f)\\. .+");

    private static final Pattern INFRASPECIFIC_MARKER = Pattern.compile("\\b(?:subsp|ssp|var)\\b");

    private static final Set<String> GENE_SUFFIXES = Set.of("gene", "protein", "mrna", "transcript");
    /**
     * MeSH files an organ's tumours, carcinomas and malignancies under its Neoplasms descriptor,
     * whose entry terms say "cancer" ("prostate carcinoma" is Prostatic Neoplasms by "prostate cancer").
     */
    private static final Pattern NEOPLASM_WORDS =
            Pattern.compile("\\b(tumor|tumour|carcinoma|adenocarcinoma|malignancy|neoplasm)\\b");

    private final Vocabulary vocabulary;
    private final boolean gene;
    private final boolean chemical;
    private final boolean disease;
    private final boolean species;
    private final List<Integer> geneTaxa;
    private final DocumentWords document;
    private final LinkSettings settings;

    /**
     * @param geneTaxa for a gene, the taxa its concept may be of, in order of preference: a gene of
     *     no other species is taken, so a yeast gene the vocabulary lacks is NIL, not the human gene
     *     of its name
     */
    NameResolver(
            Vocabulary vocabulary, String type, List<Integer> geneTaxa, DocumentWords document, LinkSettings settings) {
        this.vocabulary = vocabulary;
        this.gene = type.equals(EntityLinker.GENE);
        this.chemical = type.equals(EntityLinker.CHEMICAL);
        this.disease = type.equals(EntityLinker.DISEASE);
        this.species = type.equals(EntityLinker.SPECIES);
        this.geneTaxa = geneTaxa;
        this.document = document;
        this.settings = settings;
    }

    /**
     * The concept named exactly so, or null. A gene name that is no name as a whole but is one after
     * a species' initial ("hGR", "mTert") is that species' gene; a chemical written as an element's
     * symbol ("Pb") is that element ({@link ElementSymbols}).
     */
    Candidate exactly(String name) {
        String element = chemical ? ElementSymbols.element(name) : null;
        if (element != null) {
            Candidate c = choose(exact(element), element, geneTaxa);
            if (c != null) {
                return c;
            }
        }
        String key = NameKey.of(name);
        List<Candidate> found = exact(key);
        if (found.isEmpty() && gene && SPECIES_PREFIX.matcher(name.strip()).matches()) {
            String bare = NameKey.of(name.strip().substring(1));
            int taxon = name.strip().charAt(0) == 'h' ? EntityLinker.HUMAN : EntityLinker.MOUSE;
            return settings.geneSpecies().isEmpty() || settings.geneSpecies().contains(taxon)
                    ? choose(exact(bare), bare, List.of(taxon))
                    : null;
        }
        return choose(found, key, geneTaxa);
    }

    /**
     * For a disease, the concept of the first other writing of {@code name} ({@link DiseaseVariants})
     * that names one, else null.
     */
    Candidate writtenOtherwise(String name, Map<String, Abbreviations.Definition> abbreviations) {
        if (!disease) {
            return null;
        }
        for (String variant : DiseaseVariants.of(name, abbreviations)) {
            Candidate c = choose(exact(variant), variant, geneTaxa);
            if (c != null) {
                return c;
            }
        }
        return null;
    }

    /** The parts of a coordinated name, else the nearest names; NIL below the minimum score. */
    Link approximately(String name) {
        List<String> parts = CompositeMention.parts(name);
        if (!parts.isEmpty()) {
            List<Concept> concepts = new ArrayList<>();
            double score = 1;
            for (String part : parts) {
                Link l = nearest(NameKey.of(part));
                if (!l.isNil() && !concepts.contains(l.concepts().get(0))) {
                    concepts.add(l.concepts().get(0));
                    score = Math.min(score, l.score());
                }
            }
            if (!concepts.isEmpty()) {
                return new Link(concepts, score);
            }
        }
        return nearest(NameKey.of(name));
    }

    /**
     * The concepts of this key; for a gene also those of the key without a trailing "gene" or
     * "protein" and with one-letter Greek ("b-catenin"), the key's own first.
     */
    private List<Candidate> exact(String key) {
        List<Candidate> found = vocabulary.exact(key);
        if (species && found.isEmpty()) {
            Candidate taxon = vocabulary.taxon(key);
            found = taxon == null ? found : List.of(taxon);
        }
        if (disease && found.isEmpty()) {
            String cancer = NEOPLASM_WORDS.matcher(key).replaceAll("cancer");
            found = cancer.equals(key) ? found : vocabulary.exact(cancer);
        }
        if (gene) {
            found = new ArrayList<>(found);
            int space = key.lastIndexOf(' ');
            if (space > 0 && GENE_SUFFIXES.contains(key.substring(space + 1))) {
                found.addAll(vocabulary.exact(key.substring(0, space)));
            }
            String spelled = NameKey.greekSpelledOut(key);
            if (!spelled.equals(key)) {
                found.addAll(vocabulary.exact(spelled));
            }
        }
        return found;
    }

    /**
     * The concept of a key exactly, else of the nearest names if at least the minimum score; else NIL
     * with the nearest name's score.
     */
    private Link nearest(String key) {
        List<Candidate> exact = exact(key);
        Candidate found = choose(exact, key, geneTaxa);
        if (found != null) {
            return new Link(List.of(found.concept()), 1.0);
        }
        List<Candidate> similar = vocabulary.similar(key, gene ? NEAREST_GENES : NEAREST);
        Candidate near = choose(gene ? inTaxa(similar) : similar, key, geneTaxa);
        if (near != null && near.score() >= settings.minScore()) {
            return new Link(List.of(near.concept()), near.score());
        }
        return Link.nil(similar.isEmpty() ? 0 : similar.get(0).score());
    }

    /**
     * The best of candidates for {@code key} sorted by score (then preference): among the
     * top-scoring ones; for genes only those of {@code taxa}, the first taxon that has one, its
     * protein-coding genes first, and of those named so by the same source (a symbol before an
     * alias) the one whose other names the document uses most (then the first).
     */
    private Candidate choose(List<Candidate> candidates, String key, List<Integer> taxa) {
        if (candidates.isEmpty()) {
            return null;
        }
        double top = candidates.get(0).score();
        List<Candidate> best = candidates.stream().filter(c -> c.score() == top).toList();
        if (species) {
            return atSpeciesRank(best.get(0), key);
        }
        if (!gene) {
            return best.get(0);
        }
        for (int taxon : taxa) {
            List<Candidate> ofTaxon =
                    best.stream().filter(c -> c.concept().taxon() == taxon).toList();
            List<Candidate> coding = ofTaxon.stream()
                    .filter(c -> c.concept().weight() >= PROTEIN_CODING)
                    .toList();
            if (!coding.isEmpty()) {
                NameSource source = coding.get(0).source();
                return mostSupported(
                        coding.stream().filter(c -> c.source() == source).toList(), key);
            }
            if (!ofTaxon.isEmpty()) {
                return ofTaxon.get(0);
            }
        }
        return ortholog(best, taxa);
    }

    /**
     * The ortholog in {@code taxa} of the first candidate that has one: NCBI Gene names a human gene
     * more ways than its mouse ortholog ("Fas ligand" is FASLG's name, not Fasl's), and a name is the
     * same gene in a mouse study.
     */
    private Candidate ortholog(List<Candidate> candidates, List<Integer> taxa) {
        for (int taxon : taxa) {
            for (Candidate c : candidates) {
                for (Concept o : vocabulary.orthologs(c.concept())) {
                    if (o.taxon() == taxon) {
                        return new Candidate(o, c.source(), c.score());
                    }
                }
            }
        }
        return null;
    }

    /**
     * The species of a subspecies, variety or form the mention does not name as such: LINNAEUS reads
     * "maize" as Zea mays subsp. mays, but the text names the species, Zea mays.
     */
    private Candidate atSpeciesRank(Candidate c, String mentionKey) {
        Matcher rank = INFRASPECIFIC.matcher(c.concept().name());
        if (!rank.matches() || INFRASPECIFIC_MARKER.matcher(mentionKey).find()) {
            return c;
        }
        List<Candidate> named = exact(NameKey.of(rank.group(1)));
        return named.isEmpty() ? c : new Candidate(named.get(0).concept(), c.source(), c.score());
    }

    /** The candidates of the gene taxa, in their order: the nearest name of another species is no candidate. */
    private List<Candidate> inTaxa(List<Candidate> candidates) {
        return candidates.stream()
                .filter(c -> geneTaxa.contains(c.concept().taxon()))
                .toList();
    }

    private Candidate mostSupported(List<Candidate> candidates, String key) {
        Candidate chosen = candidates.get(0);
        if (candidates.size() == 1) {
            return chosen;
        }
        int most = document.support(vocabulary.keysOf(chosen.concept()), key);
        for (Candidate c : candidates.subList(1, candidates.size())) {
            int support = document.support(vocabulary.keysOf(c.concept()), key);
            if (support > most + 1) {
                chosen = c;
                most = support;
            }
        }
        return chosen;
    }
}
