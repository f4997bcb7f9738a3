package dev.bionerstream.linking;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which species' genes a gene mention most likely names, as GNormPlus's species assignment does
 * it, simplified: a species named right before the mention ("human L-FABP"), else in the mention's
 * own sentence (the nearest before it, else the nearest after), then the species of the document by
 * mentions (most first, ties by taxon id), then human, then mouse.
 */
final class SpeciesContext {
    private record Named(int start, int end, int taxon) {}

    private final String text;
    private final List<Named> named = new ArrayList<>();
    private final Map<Integer, Integer> counts = new TreeMap<>();

    SpeciesContext(String text) {
        this.text = text;
    }

    /** A species mention linked to {@code taxon}, at {@code [start, end)} (start {@link Mention#UNKNOWN} if not known). */
    void add(int start, int end, int taxon) {
        counts.merge(taxon, 1, Integer::sum);
        if (start >= 0) {
            named.add(new Named(start, end, taxon));
        }
    }

    /** Whether the document names human or mouse, the species the gene vocabulary has. */
    boolean namesAGeneSpecies() {
        return counts.containsKey(EntityLinker.HUMAN) || counts.containsKey(EntityLinker.MOUSE);
    }

    /** The taxa to prefer for a gene mention starting at {@code start}, most preferred first. */
    List<Integer> forGeneAt(int start) {
        List<Integer> order = new ArrayList<>();
        if (start >= 0 && start <= text.length()) {
            int from = sentenceStart(start);
            int to = sentenceEnd(start);
            Named adjacent = null;
            Named before = null;
            Named after = null;
            for (Named n : named) {
                if (n.end() <= start && start - n.end() <= 1) {
                    adjacent = n;
                }
                if (n.start() >= from && n.start() < start && (before == null || n.start() > before.start())) {
                    before = n;
                } else if (n.start() > start && n.start() < to && (after == null || n.start() < after.start())) {
                    after = n;
                }
            }
            if (adjacent != null) {
                order.add(adjacent.taxon());
            } else if (before != null) {
                order.add(before.taxon());
            } else if (after != null) {
                order.add(after.taxon());
            }
        }
        List<Integer> byCount = new ArrayList<>(counts.keySet());
        byCount.sort((a, b) -> counts.get(a).equals(counts.get(b))
                ? Integer.compare(a, b)
                : Integer.compare(counts.get(b), counts.get(a)));
        byCount.add(EntityLinker.HUMAN);
        byCount.add(EntityLinker.MOUSE);
        for (int taxon : byCount) {
            if (!order.contains(taxon)) {
                order.add(taxon);
            }
        }
        return order;
    }

    private int sentenceStart(int at) {
        for (int i = Math.min(at, text.length()) - 2; i > 0; i--) {
            if (endsSentence(i)) {
                return i + 1;
            }
        }
        return 0;
    }

    private int sentenceEnd(int at) {
        for (int i = at; i < text.length() - 1; i++) {
            if (endsSentence(i)) {
                return i + 1;
            }
        }
        return text.length();
    }

    /** A full stop, question or exclamation mark followed by a space. */
    private boolean endsSentence(int i) {
        char c = text.charAt(i);
        return (c == '.' || c == '?' || c == '!') && i + 1 < text.length() && text.charAt(i + 1) == ' ';
    }
}
