package dev.bionerstream.linking;

import dev.bionerstream.text.DocumentText;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Links one document's mentions to concepts. For each mention, the first that finds a concept:
 *
 * <ol>
 *   <li>the long form, when the document defines the mention as an abbreviation ("iodide transport
 *       defect (ITD)": ITD is linked as the long form);
 *   <li>the vocabulary's names, exactly ({@link NameKey}); for genes also without a trailing
 *       "gene", "protein" or "mRNA" and with one-letter Greek ("b-catenin"), for diseases with an
 *       organ's tumour or carcinoma read as its cancer;
 *   <li>the parts of a coordinated mention ("breast and ovarian cancer": both concepts);
 *   <li>the nearest names by character trigrams, if at least {@link LinkSettings#minScore};
 *   <li>for diseases, the name written another way ({@link DiseaseVariants}), exactly.
 * </ol>
 *
 * Otherwise the mention is NIL ({@link NameResolver} takes these steps for one name). A gene is a
 * gene of the one species its document's evidence names for it ({@link SpeciesEvidence}: on the
 * mention, in its sentence, its paragraph, the document), or NIL when the vocabularies hold no gene
 * of that species by that name: a yeast gene is never the human gene of the same symbol. Among that
 * species' protein-coding genes sharing a name, the one whose other names the document uses
 * clearly more ({@link DocumentWords}), then {@link NameSource}, the corpora's counts, how many of
 * its names hold the name, weight and id decide. The evidence is taken from the whole document, so a
 * mention gets the same link whatever the order of the mentions; the linker keeps no state between
 * calls and is thread-safe.
 */
public final class EntityLinker {
    static final int HUMAN = 9606;
    static final int MOUSE = 10090;
    static final int RAT = 10116;

    static final String CHEMICAL = "chemical";
    static final String GENE = "gene";
    static final String DISEASE = "disease";
    static final String SPECIES = "species";

    private final Map<String, Vocabulary> vocabularies;
    private final LinkSettings settings;

    public EntityLinker(Map<String, Vocabulary> vocabularies, LinkSettings settings) {
        this.vocabularies = new TreeMap<>(vocabularies);
        this.settings = settings;
    }

    /** Loads the vocabularies {@code settings} name; errors name the file and line at fault. */
    public static EntityLinker open(LinkSettings settings) {
        return new EntityLinker(loadSideBySide(settings), settings);
    }

    /**
     * One thread a type, each independent of the others, so the result is the same in any order. The
     * threads are this call's own and end with it: loading on the JDK's common pool (a parallel
     * stream) left Jackson's buffer recycler, a thread-local of this job's classes, on the pool's
     * long-lived worker, which kept an ended job's class loader alive in the TaskManager
     * (ClusterITCase's resubmissions found two).
     */
    private static Map<String, Vocabulary> loadSideBySide(LinkSettings settings) {
        ExecutorService threads =
                Executors.newFixedThreadPool(Math.max(1, settings.types().size()), task -> {
                    Thread t = new Thread(task, "bioner-vocabulary-load");
                    t.setDaemon(true);
                    return t;
                });
        try {
            Map<String, Future<Vocabulary>> loads = new TreeMap<>();
            for (String type : settings.types()) {
                loads.put(type, threads.submit(() -> load(type, settings)));
            }
            Map<String, Vocabulary> vocabularies = new TreeMap<>();
            for (Map.Entry<String, Future<Vocabulary>> load : loads.entrySet()) {
                vocabularies.put(load.getKey(), load.getValue().get());
            }
            return vocabularies;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            if (e.getCause() instanceof Error cause) {
                throw cause;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while loading the vocabularies", e);
        } finally {
            threads.shutdownNow();
        }
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

    /**
     * One link per mention, in the mentions' order; each mention's start is a UTF-16 offset into
     * {@code doc.text()} ({@link Mention#UNKNOWN} if not known). The document's text gives the
     * abbreviations it defines and the species it names.
     */
    public List<Link> link(DocumentText doc, List<Mention> mentions) {
        String text = doc.text();
        Map<String, Abbreviations.Definition> abbreviations = Abbreviations.in(text);
        Link[] links = new Link[mentions.size()];
        DocumentWords words = new DocumentWords(text);
        List<SpeciesNames.Named> named = new ArrayList<>();
        List<int[]> taken = new ArrayList<>();
        boolean genes = false;
        for (int i = 0; i < links.length; i++) {
            Mention m = mentions.get(i);
            genes |= m.type().equals(GENE);
            if (m.type().equals(SPECIES)) {
                links[i] = link(m, abbreviations, List.of(), words);
                for (Concept c : links[i].concepts()) {
                    if (m.start() >= 0) {
                        named.add(new SpeciesNames.Named(m.start(), m.end(), SpeciesNames.taxon(c.id())));
                    }
                }
            }
            if (m.start() >= 0) {
                taken.add(new int[] {m.start(), m.end()});
            }
        }
        SpeciesEvidence species =
                genes && settings.geneSpecies().isEmpty() ? evidence(doc, named, taken, mentions, abbreviations) : null;
        int[] geneTaxa = species == null ? null : species.forGenes(genePlaces(mentions, abbreviations));
        for (int i = 0; i < links.length; i++) {
            Mention m = mentions.get(i);
            if (links[i] == null) {
                List<Integer> taxa = !m.type().equals(GENE)
                        ? List.of()
                        : geneTaxa == null ? settings.geneSpecies() : List.of(geneTaxa[i]);
                links[i] = link(m, abbreviations, taxa, words);
            }
        }
        return List.of(links);
    }

    /** The species a document names: its species mentions, and those of the species vocabulary's names in its text. */
    private SpeciesEvidence evidence(
            DocumentText doc,
            List<SpeciesNames.Named> mentioned,
            List<int[]> taken,
            List<Mention> mentions,
            Map<String, Abbreviations.Definition> abbreviations) {
        List<SpeciesNames.Named> named = new ArrayList<>();
        for (SpeciesNames.Named n : mentioned) {
            if (SpeciesNames.namesTheStudied(doc.text(), n.start(), n.end(), n.taxon())) {
                named.add(n);
            }
        }
        Vocabulary v = vocabularies.get(SPECIES);
        if (v != null) {
            for (SpeciesNames.Named n : SpeciesNames.in(doc.text(), v, taken, abbreviations)) {
                if (mentioned.stream().noneMatch(o -> n.start() < o.end() && o.start() < n.end())) {
                    named.add(n);
                }
            }
        }
        named.sort(Comparator.comparingInt(SpeciesNames.Named::start).thenComparingInt(SpeciesNames.Named::taxon));
        List<String> genes = mentions.stream()
                .filter(m -> m.type().equals(GENE))
                .map(Mention::text)
                .toList();
        Vocabulary geneVocabulary = vocabularies.get(GENE);
        return new SpeciesEvidence(doc, named, genes, geneVocabulary.taxa()::contains);
    }

    /**
     * Where each gene mention's species is decided, null for the other mentions: an abbreviation's
     * place is that of its definition ("human liver-type FABP (L-FABP)").
     */
    private static List<SpeciesEvidence.Place> genePlaces(
            List<Mention> mentions, Map<String, Abbreviations.Definition> abbreviations) {
        List<SpeciesEvidence.Place> places = new ArrayList<>(mentions.size());
        for (Mention m : mentions) {
            Abbreviations.Definition defined = abbreviations.get(m.text().strip());
            if (!m.type().equals(GENE)) {
                places.add(null);
            } else if (defined != null && defined.start() >= 0 && m.start() >= 0) {
                int end = defined.start() + defined.longForm().length();
                places.add(new SpeciesEvidence.Place(defined.start(), end, m.text()));
            } else {
                places.add(new SpeciesEvidence.Place(m.start(), m.end(), m.text()));
            }
        }
        return places;
    }

    /** @param abbreviations the document's definitions of abbreviations, by short form */
    private Link link(
            Mention m,
            Map<String, Abbreviations.Definition> abbreviations,
            List<Integer> geneTaxa,
            DocumentWords words) {
        Vocabulary v = vocabularies.get(m.type());
        if (v == null) {
            return Link.nil(0);
        }
        NameResolver r = new NameResolver(v, m.type(), geneTaxa, words, settings);
        Abbreviations.Definition defined = abbreviations.get(m.text().strip());
        String longForm = defined == null ? null : defined.longForm();
        Candidate exact = longForm == null ? null : r.exactly(longForm);
        if (exact == null) {
            exact = r.exactly(m.text());
        }
        if (exact != null) {
            return new Link(List.of(exact.concept()), 1.0);
        }
        // a short form the document defines means its long form: when that finds nothing, the short
        // form's letters alone are too few to be read by their trigrams ("otilonium bromide (OB)" is
        // not leptin's "OB protein"); an exact name of its own still counts
        Link approximate = longForm == null ? r.approximately(m.text()) : r.approximately(longForm);
        if (approximate.isNil()) {
            for (String name : longForm == null ? List.of(m.text()) : List.of(longForm, m.text())) {
                Candidate otherwise = r.writtenOtherwise(name, abbreviations);
                if (otherwise != null) {
                    return new Link(List.of(otherwise.concept()), 1.0);
                }
            }
        }
        return approximate;
    }
}
