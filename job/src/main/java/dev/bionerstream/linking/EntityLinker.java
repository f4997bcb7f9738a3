package dev.bionerstream.linking;

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

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
 *   <li>the nearest names by character trigrams, if at least {@link LinkSettings#minScore}.
 * </ol>
 *
 * Otherwise the mention is NIL ({@link NameResolver} takes these steps for one name). Among
 * concepts that match equally well, a gene of the species its context names comes first ({@link
 * SpeciesContext}), of that species' protein-coding genes the one whose other names the document
 * uses clearly more ({@link DocumentWords}), then {@link NameSource}, the corpora's counts, weight
 * and id decide. The
 * species context is taken from the whole document, so a mention gets the same link whatever the
 * order of the mentions; the linker keeps no state between calls and is thread-safe.
 */
public final class EntityLinker {
    static final int HUMAN = 9606;
    static final int MOUSE = 10090;

    static final String GENE = "gene";
    static final String DISEASE = "disease";
    private static final String SPECIES = "species";

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
        DocumentWords words = new DocumentWords(text);
        for (int i = 0; i < links.length; i++) {
            Mention m = mentions.get(i);
            if (m.type().equals(SPECIES)) {
                links[i] = link(m, abbreviations.get(m.text().strip()), List.of(), false, words);
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
                links[i] = link(m, defined, geneTaxa, !species.namesAGeneSpecies(), words);
            }
        }
        return List.of(links);
    }

    /**
     * @param defined the document's definition of the mention as an abbreviation, or null
     * @param byWrittenForm when the document names no species of the gene vocabulary: a gene written
     *     exactly as one species writes its symbol ("Sox2" is the mouse's, "SOX2" the human's) is that
     *     species' gene
     */
    private Link link(
            Mention m,
            Abbreviations.Definition defined,
            List<Integer> geneTaxa,
            boolean byWrittenForm,
            DocumentWords words) {
        Vocabulary v = vocabularies.get(m.type());
        if (v == null) {
            return Link.nil(0);
        }
        NameResolver r = new NameResolver(v, m.type(), geneTaxa, byWrittenForm, words, settings);
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
}
