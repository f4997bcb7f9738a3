package dev.bionerstream.linking;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Links one document's mentions to concepts. For each mention, the first that finds a concept:
 *
 * <ol>
 *   <li>the long form, when the document defines the mention as an abbreviation ("iodide transport
 *       defect (ITD)": ITD is linked as the long form);
 *   <li>the vocabulary's names, exactly ({@link NameKey});
 *   <li>for genes, the name without a trailing "gene", "protein" or "mRNA";
 *   <li>the parts of a coordinated mention ("breast and ovarian cancer": both concepts);
 *   <li>the nearest names by character trigrams, if at least {@link LinkSettings#minScore}.
 * </ol>
 *
 * Otherwise the mention is NIL. Among concepts that match equally well, a gene of a species the
 * document names comes first (the species most mentioned first, then human, then mouse), then
 * {@link NameSource}, weight and id decide. The species context is counted over the whole
 * document, so a mention gets the same link whatever the order of the mentions; the linker keeps
 * no state between calls and is thread-safe.
 */
public final class EntityLinker {
    static final int HUMAN = 9606;
    static final int MOUSE = 10090;
    private static final int NEAREST = 10;
    private static final double CLOSE = 0.8;
    /**
     * The gene bundle's weight of a protein-coding gene (1000 plus its number of names): a mention
     * names a protein-coding gene rather than a non-coding one that shares the name ("PAR1" is F2r,
     * the thrombin receptor, not the imprinted transcript Par1).
     */
    static final long PROTEIN_CODING = 1000;

    private static final String GENE = "gene";
    private static final String SPECIES = "species";
    private static final Set<String> GENE_SUFFIXES = Set.of("gene", "protein", "mrna", "transcript");
    /**
     * MeSH files an organ's tumours, carcinomas and malignancies under its Neoplasms descriptor,
     * whose entry terms say "cancer" ("prostate carcinoma" is Prostatic Neoplasms by "prostate cancer").
     */
    private static final Pattern NEOPLASM_WORDS = Pattern.compile("\\b(tumor|tumour|carcinoma|malignancy|neoplasm)\\b");

    private static final String DISEASE = "disease";

    private final Map<String, Vocabulary> vocabularies;
    private final LinkSettings settings;

    public EntityLinker(Map<String, Vocabulary> vocabularies, LinkSettings settings) {
        this.vocabularies = new TreeMap<>(vocabularies);
        this.settings = settings;
    }

    /** Loads the vocabularies {@code settings} name; errors name the file and line at fault. */
    public static EntityLinker open(LinkSettings settings) {
        Set<String> types = new LinkedHashSet<>(settings.bundles().keySet());
        types.addAll(settings.replacements().keySet());
        types.addAll(settings.extensions().keySet());
        // types load side by side: each is independent of the others, so the result is the same
        Map<String, Vocabulary> vocabularies = types.parallelStream()
                .collect(Collectors.toMap(type -> type, type -> load(type, settings), (a, b) -> a, TreeMap::new));
        return new EntityLinker(vocabularies, settings);
    }

    private static Vocabulary load(String type, LinkSettings settings) {
        Vocabulary.Builder b = new Vocabulary.Builder();
        String replacement = settings.replacements().get(type);
        if (replacement != null) {
            VocabularyFiles.readUser(Path.of(replacement), b);
        } else if (settings.bundles().containsKey(type)) {
            String bundle = settings.bundles().get(type);
            String declared = VocabularyFiles.readBundle(bundle, b);
            if (!declared.equals(type)) {
                throw new IllegalArgumentException(
                        "vocabulary bundle " + bundle + " is for " + declared + " entities, not " + type);
            }
        }
        String extension = settings.extensions().get(type);
        if (extension != null) {
            VocabularyFiles.readUser(Path.of(extension), b);
        }
        return b.build();
    }

    /**
     * The same vocabularies deciding NIL at {@code minScore}: at 0 every mention with any candidate
     * gets its best one, as accuracy@1 is measured.
     */
    public EntityLinker withMinScore(double minScore) {
        return new EntityLinker(
                vocabularies,
                new LinkSettings(
                        settings.bundles(),
                        settings.replacements(),
                        settings.extensions(),
                        settings.geneSpecies(),
                        minScore));
    }

    public LinkSettings settings() {
        return settings;
    }

    /** The vocabulary of each type that has one. */
    public Map<String, Vocabulary> vocabularies() {
        return vocabularies;
    }

    /** One link per mention, in the mentions' order; {@code text} is the document's (for its abbreviations). */
    public List<Link> link(String text, List<Mention> mentions) {
        Map<String, Abbreviations.Definition> abbreviations = Abbreviations.in(text);
        Link[] links = new Link[mentions.size()];
        SpeciesContext species = new SpeciesContext(text);
        for (int i = 0; i < links.length; i++) {
            Mention m = mentions.get(i);
            if (m.type().equals(SPECIES)) {
                links[i] = link(m, abbreviations, List.of(), false);
                for (Concept c : links[i].concepts()) {
                    species.add(m.start(), m.start() + m.text().length(), taxon(c.id()));
                }
            }
        }
        for (int i = 0; i < links.length; i++) {
            Mention m = mentions.get(i);
            if (links[i] == null) {
                Abbreviations.Definition defined = abbreviations.get(m.text().strip());
                // an abbreviation's species is that of its definition: "human liver-type FABP (L-FABP)"
                int at = defined != null && m.start() >= 0 ? defined.start() : m.start();
                List<Integer> geneTaxa = !m.type().equals(GENE)
                        ? List.of()
                        : settings.geneSpecies().isEmpty() ? species.forGeneAt(at) : settings.geneSpecies();
                links[i] = link(m, abbreviations, geneTaxa, !species.namesAGeneSpecies());
            }
        }
        return List.of(links);
    }

    /**
     * @param byWrittenForm when the document names no species of the gene vocabulary: a gene written
     *     exactly as one species writes its symbol ("Sox2" is the mouse's, "SOX2" the human's) is that
     *     species' gene
     */
    private Link link(
            Mention m,
            Map<String, Abbreviations.Definition> abbreviations,
            List<Integer> geneTaxa,
            boolean byWrittenForm) {
        Vocabulary v = vocabularies.get(m.type());
        if (v == null) {
            return Link.nil(0);
        }
        Resolver r = new Resolver(v, m.type(), geneTaxa, byWrittenForm);
        Abbreviations.Definition defined = abbreviations.get(m.text().strip());
        String longForm = defined == null ? null : defined.longForm();
        Candidate viaLongForm = longForm == null ? null : r.exactly(longForm);
        Candidate self = r.exactly(m.text());
        Candidate exact = viaLongForm == null ? self : self == null ? viaLongForm : r.better(viaLongForm, self);
        if (exact != null && r.inFirstSpecies(exact)) {
            return new Link(List.of(exact.concept()), 1.0);
        }
        if (exact != null) {
            // another species' gene of this exact name, unless the preferred species has one of a very close name
            Candidate close = r.closeInFirstSpecies(longForm != null ? longForm : m.text());
            return close != null
                    ? new Link(List.of(close.concept()), close.score())
                    : new Link(List.of(exact.concept()), 1.0);
        }
        if (longForm != null) {
            Link approximate = r.approximately(longForm);
            if (!approximate.isNil()) {
                return approximate;
            }
        }
        return r.approximately(m.text());
    }

    private static int taxon(String curie) {
        try {
            return Integer.parseInt(curie.substring(curie.indexOf(':') + 1));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Finds the concept(s) of one name in one vocabulary. */
    private final class Resolver {
        private final Vocabulary vocabulary;
        private final boolean gene;
        private final boolean disease;
        private final List<Integer> geneTaxa;
        private final boolean byWrittenForm;

        Resolver(Vocabulary vocabulary, String type, List<Integer> geneTaxa, boolean byWrittenForm) {
            this.vocabulary = vocabulary;
            this.gene = type.equals(GENE);
            this.disease = type.equals(DISEASE);
            this.geneTaxa = geneTaxa;
            this.byWrittenForm = byWrittenForm;
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
            List<Candidate> found = exact(NameKey.of(name));
            if (gene && byWrittenForm) {
                List<Candidate> written = found.stream()
                        .filter(c -> c.concept().name().equals(name.strip()))
                        .toList();
                found = written.isEmpty() ? found : written;
            }
            return choose(found);
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
            String key = NameKey.of(name);
            List<String> parts = CompositeMention.parts(name);
            if (!parts.isEmpty()) {
                List<Concept> concepts = new ArrayList<>();
                double score = 1;
                for (String part : parts) {
                    Candidate c = nearest(NameKey.of(part));
                    if (c != null && !concepts.contains(c.concept())) {
                        concepts.add(c.concept());
                        score = Math.min(score, c.score());
                    }
                }
                if (!concepts.isEmpty()) {
                    return new Link(concepts, score);
                }
            }
            Candidate near = nearest(key);
            if (near != null) {
                return new Link(List.of(near.concept()), near.score());
            }
            List<Candidate> all = vocabulary.similar(key, 1);
            return Link.nil(all.isEmpty() ? 0 : all.get(0).score());
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

        private Candidate nearest(String key) {
            List<Candidate> exact = exact(key);
            if (!exact.isEmpty()) {
                return choose(exact);
            }
            Candidate best = choose(vocabulary.similar(key, NEAREST));
            return best != null && best.score() >= settings.minScore() ? best : null;
        }

        /**
         * The best of candidates sorted by score (then preference): among the top-scoring ones, for
         * genes the first of the most preferred species.
         */
        private Candidate choose(List<Candidate> candidates) {
            if (candidates.isEmpty()) {
                return null;
            }
            double top = candidates.get(0).score();
            List<Candidate> best =
                    candidates.stream().filter(c -> c.score() == top).toList();
            if (!gene) {
                return best.get(0);
            }
            for (int taxon : geneTaxa) {
                Candidate first = null;
                for (Candidate c : best) {
                    if (c.concept().taxon() == taxon) {
                        if (c.concept().weight() >= PROTEIN_CODING) {
                            return c;
                        }
                        first = first == null ? c : first;
                    }
                }
                if (first != null) {
                    return first;
                }
            }
            if (!settings.geneSpecies().isEmpty()) {
                return null;
            }
            return best.get(0);
        }
    }
}
