package dev.bionerstream.linking;

import dev.bionerstream.text.DocumentText;
import dev.bionerstream.text.Sentence;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.regex.Pattern;

/**
 * Which species' gene a gene mention names, as GNormPlus's species assignment (SR4GN) decides it:
 * a species named on the mention itself ("human L-FABP", "yeast RAD51"), else the species named
 * nearest it in its sentence, else nearest in its paragraph (its field), else the species the
 * document names most; human when it names none. The paragraph's species is the nearest named before
 * the mention (species are introduced, then their genes discussed), else the nearest after. The
 * mention's written form counts against evidence from outside its sentence, and against its
 * sentence's evidence where it is the document's most named species: human symbols are written in
 * capitals ("DACH1"), mouse and rat ones with an initial capital ("Brca1"), so in a study of human
 * tumours that mentions a mouse xenograft, "DACH1" stays human, and "Brca1" in a paragraph that
 * last named patients is still the mouse gene of a study that names mice.
 */
final class SpeciesEvidence {
    /** How directly the evidence names the species. */
    enum Level {
        ON_THE_MENTION,
        SENTENCE,
        PARAGRAPH,
        DOCUMENT,
        NONE
    }

    record Choice(int taxon, Level level) {}

    /** A gene mention {@code text} at {@code [start, end)} of the document's text. */
    record Place(int start, int end, String text) {}

    private static final Pattern HUMAN_SYMBOL = Pattern.compile("[A-Z][A-Z0-9-]*[0-9][A-Z0-9-]*|[A-Z]{3,}[0-9]*");
    private static final Pattern RODENT_SYMBOL = Pattern.compile("[A-Z][a-z]+[a-z0-9]*[0-9][a-z0-9]*");

    private final DocumentText doc;
    /** What may decide a mention's species from its own sentence, and from further away. */
    private final List<SpeciesNames.Named> near;

    private final List<SpeciesNames.Named> far;
    private final Map<Integer, Integer> counts = new HashMap<>();
    private final int focus;

    /**
     * @param named the species the document names, in text order
     * @param genes the document's gene mentions: when it names no species, the convention most of
     *     them are written in decides (a mouse study that never says "mouse" writes "Socs2", "Pim1")
     * @param held whether the vocabularies hold genes of a taxon: a species they do not hold named
     *     once, away from the mention ("conserved from yeast to mammals"), is too little to make its
     *     genes NIL; named on the mention, in its sentence or again elsewhere, it is enough
     */
    SpeciesEvidence(DocumentText doc, List<SpeciesNames.Named> named, List<String> genes, IntPredicate held) {
        this.doc = doc;
        Map<Integer, Integer> all = new HashMap<>();
        named.forEach(n -> all.merge(n.taxon(), 1, Integer::sum));
        this.near = named;
        this.far = named.stream()
                .filter(n -> held.test(n.taxon()) || all.get(n.taxon()) > 1)
                .toList();
        int best = far.isEmpty() ? byConvention(genes) : EntityLinker.HUMAN;
        int most = 0;
        for (SpeciesNames.Named n : far) {
            int c = counts.merge(n.taxon(), 1, Integer::sum);
            if (c > most) {
                most = c;
                best = n.taxon();
            }
        }
        this.focus = best;
    }

    /**
     * The species the document names most (the first to reach that count); if it names none, the
     * convention most of its gene symbols follow, human on a tie.
     */
    int focus() {
        return focus;
    }

    /**
     * The species of each gene mention (0 where the place is null: not a gene). A name given its
     * species on the mention ("HIV-1 Tat") keeps it at its other mentions where their evidence is
     * weaker than their sentence's: a later "Tat" is HIV's too.
     */
    int[] forGenes(List<Place> genes) {
        Choice[] choices = new Choice[genes.size()];
        Map<String, Integer> onTheMention = new HashMap<>();
        for (int i = 0; i < choices.length; i++) {
            Place p = genes.get(i);
            if (p != null) {
                choices[i] = forGene(p.start(), p.end(), p.text());
                if (choices[i].level() == Level.ON_THE_MENTION) {
                    onTheMention.putIfAbsent(p.text().strip(), choices[i].taxon());
                }
            }
        }
        int[] taxa = new int[choices.length];
        for (int i = 0; i < taxa.length; i++) {
            Choice c = choices[i];
            if (c != null) {
                taxa[i] = c.level().compareTo(Level.SENTENCE) > 0
                        ? onTheMention.getOrDefault(genes.get(i).text().strip(), c.taxon())
                        : c.taxon();
            }
        }
        return taxa;
    }

    /** The species of a gene mention {@code text} at {@code [start, end)} of the document's text. */
    Choice forGene(int start, int end, String text) {
        Choice context = context(start, end);
        if (context.level() == Level.ON_THE_MENTION) {
            return context;
        }
        int written = writtenAs(text.strip());
        boolean nearby = context.level() == Level.SENTENCE;
        if (written != 0 && written != context.taxon() && (written == focus || !nearby)) {
            return new Choice(written, Level.DOCUMENT);
        }
        return context;
    }

    private Choice context(int start, int end) {
        if (start < 0) {
            return new Choice(focus, counts.isEmpty() ? Level.NONE : Level.DOCUMENT);
        }
        Sentence sentence = doc.sentenceAt(start);
        SpeciesNames.Named inSentence = null;
        SpeciesNames.Named inParagraph = null;
        for (SpeciesNames.Named n : near) {
            if (n.end() <= start && start - n.end() <= 1) {
                return new Choice(n.taxon(), Level.ON_THE_MENTION);
            }
            if (sentence != null && n.start() >= sentence.start() && n.end() <= sentence.end()) {
                inSentence = nearer(inSentence, n, start, end);
            }
        }
        SpeciesNames.Named after = null;
        for (SpeciesNames.Named n : far) {
            if (sentence != null && sameField(n, sentence)) {
                if (n.end() <= start) {
                    inParagraph = n;
                } else if (after == null) {
                    after = n;
                }
            }
        }
        if (inParagraph == null) {
            inParagraph = after;
        }
        if (inSentence != null) {
            return new Choice(inSentence.taxon(), Level.SENTENCE);
        }
        if (inParagraph != null) {
            return new Choice(inParagraph.taxon(), Level.PARAGRAPH);
        }
        return new Choice(focus, counts.isEmpty() ? Level.NONE : Level.DOCUMENT);
    }

    private boolean sameField(SpeciesNames.Named n, Sentence sentence) {
        return doc.fieldAt(n.start()) == sentence.field();
    }

    private static SpeciesNames.Named nearer(SpeciesNames.Named best, SpeciesNames.Named n, int start, int end) {
        return best == null || distance(n, start, end) < distance(best, start, end) ? n : best;
    }

    private static int distance(SpeciesNames.Named n, int start, int end) {
        return n.end() <= start ? start - n.end() : n.start() - end;
    }

    private static int byConvention(List<String> genes) {
        int human = 0;
        int rodent = 0;
        for (String g : genes) {
            human += HUMAN_SYMBOL.matcher(g.strip()).matches() ? 1 : 0;
            rodent += RODENT_SYMBOL.matcher(g.strip()).matches() ? 1 : 0;
        }
        return rodent > human ? EntityLinker.MOUSE : EntityLinker.HUMAN;
    }

    /**
     * The species whose convention a symbol is written in, if the document names it: human for
     * capitals ("DACH1"), the document's mouse or rat for an initial capital ("Brca1"); else 0.
     */
    private int writtenAs(String symbol) {
        if (HUMAN_SYMBOL.matcher(symbol).matches()) {
            return counts.containsKey(EntityLinker.HUMAN) ? EntityLinker.HUMAN : 0;
        }
        if (RODENT_SYMBOL.matcher(symbol).matches()) {
            int mice = counts.getOrDefault(EntityLinker.MOUSE, 0);
            int rats = counts.getOrDefault(EntityLinker.RAT, 0);
            return mice == 0 && rats == 0 ? 0 : mice >= rats ? EntityLinker.MOUSE : EntityLinker.RAT;
        }
        return 0;
    }
}
