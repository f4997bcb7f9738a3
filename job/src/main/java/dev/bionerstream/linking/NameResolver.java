package dev.bionerstream.linking;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Finds the concept(s) of one name in one vocabulary, for one mention's context: the species its
 * genes should be of and the linker's settings. See {@link EntityLinker} for the order of the steps.
 */
final class NameResolver {
    private static final int NEAREST = 10;
    /** How close another name of the preferred species must be to beat another species' exact name. */
    private static final double CLOSE = 0.8;
    /**
     * The gene bundle's weight of a protein-coding gene (1000 plus its number of names): a mention
     * names a protein-coding gene rather than a non-coding one that shares the name ("PAR1" is F2r,
     * the thrombin receptor, not the imprinted transcript Par1).
     */
    private static final long PROTEIN_CODING = 1000;

    /** "hGR", "mTert": a species' initial before a gene's symbol, read past when the whole is no name. */
    private static final Pattern SPECIES_PREFIX = Pattern.compile("[hm][A-Z][A-Za-z0-9-]+");

    private static final Set<String> GENE_SUFFIXES = Set.of("gene", "protein", "mrna", "transcript");
    /**
     * MeSH files an organ's tumours, carcinomas and malignancies under its Neoplasms descriptor,
     * whose entry terms say "cancer" ("prostate carcinoma" is Prostatic Neoplasms by "prostate cancer").
     */
    private static final Pattern NEOPLASM_WORDS =
            Pattern.compile("\\b(tumor|tumour|carcinoma|adenocarcinoma|malignancy|neoplasm)\\b");

    private final Vocabulary vocabulary;
    private final boolean gene;
    private final boolean disease;
    private final List<Integer> geneTaxa;
    private final boolean byWrittenForm;
    private final DocumentWords document;
    private final LinkSettings settings;

    NameResolver(
            Vocabulary vocabulary,
            String type,
            List<Integer> geneTaxa,
            boolean byWrittenForm,
            DocumentWords document,
            LinkSettings settings) {
        this.vocabulary = vocabulary;
        this.gene = type.equals(EntityLinker.GENE);
        this.disease = type.equals(EntityLinker.DISEASE);
        this.geneTaxa = geneTaxa;
        this.byWrittenForm = byWrittenForm;
        this.document = document;
        this.settings = settings;
    }

    /** Whether a candidate is not a gene, or a gene of the most preferred species. */
    boolean inFirstSpecies(Candidate c) {
        return !gene || geneTaxa.isEmpty() || c.concept().taxon() == geneTaxa.get(0);
    }

    /** A gene of the most preferred species whose name is at least {@link #CLOSE} similar, or null. */
    Candidate closeInFirstSpecies(String name) {
        for (Candidate c : vocabulary.similar(NameKey.of(name), NEAREST)) {
            if (c.score() < CLOSE) {
                break;
            }
            if (c.concept().taxon() == geneTaxa.get(0)) {
                return c;
            }
        }
        return null;
    }

    /** The concept named exactly so, or null. */
    Candidate exactly(String name) {
        String key = NameKey.of(name);
        List<Candidate> found = exact(key);
        if (found.isEmpty() && gene && SPECIES_PREFIX.matcher(name.strip()).matches()) {
            key = NameKey.of(name.strip().substring(1));
            found = exact(key);
        }
        if (gene && byWrittenForm) {
            List<Candidate> written = found.stream()
                    .filter(c -> c.concept().name().equals(name.strip()))
                    .toList();
            found = written.isEmpty() ? found : written;
        }
        return choose(found, key);
    }

    /**
     * Of a concept found by a document's long form and one found by the abbreviation itself: the
     * long form's, unless the other is a gene of a species the document prefers.
     */
    Candidate better(Candidate longForm, Candidate self) {
        return gene && rank(self.concept()) < rank(longForm.concept()) ? self : longForm;
    }

    private int rank(Concept c) {
        int at = geneTaxa.indexOf(c.taxon());
        return at < 0 ? Integer.MAX_VALUE : at;
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
        Candidate found = exact.isEmpty() ? null : choose(exact, key);
        if (found != null) {
            return new Link(List.of(found.concept()), 1.0);
        }
        List<Candidate> similar = vocabulary.similar(key, NEAREST);
        Candidate near = exact.isEmpty() ? choose(similar, key) : null;
        if (near != null && near.score() >= settings.minScore()) {
            return new Link(List.of(near.concept()), near.score());
        }
        return Link.nil(similar.isEmpty() ? 0 : similar.get(0).score());
    }

    /**
     * The best of candidates for {@code key} sorted by score (then preference): among the
     * top-scoring ones, for genes the most preferred species' protein-coding gene, and of those
     * named so by the same source (a symbol before an alias) the one whose other names the document
     * uses most (then the first).
     */
    private Candidate choose(List<Candidate> candidates, String key) {
        if (candidates.isEmpty()) {
            return null;
        }
        double top = candidates.get(0).score();
        List<Candidate> best = candidates.stream().filter(c -> c.score() == top).toList();
        if (!gene) {
            return best.get(0);
        }
        for (int taxon : geneTaxa) {
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
        if (!settings.geneSpecies().isEmpty()) {
            return null;
        }
        return best.get(0);
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
