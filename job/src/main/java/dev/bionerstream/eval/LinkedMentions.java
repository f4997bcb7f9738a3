package dev.bionerstream.eval;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Mention-level precision, recall and F1 of extraction and linking together, by the rule of the
 * HunFlair2 cross-corpus benchmark (Sänger et al., Bioinformatics 2024), which compares PubTator,
 * HunFlair2 and BERN2: a predicted mention is right when its span is a gold span of its type, or one
 * of its ends is one character off, and one of its ids is one of that gold mention's ids. A wrong id
 * is a false positive and a false negative; a NIL prediction claims no id, so it is no positive (its
 * gold mention is a false negative). Gold mentions without an id are left out, and so are the
 * predictions on them.
 */
public final class LinkedMentions {
    /** A mention with its ids: {@code [start, end)} in one unit for both sides of a comparison. */
    public record Linked(String type, int start, int end, Set<String> ids) {
        public Linked {
            ids = Collections.unmodifiableSet(new TreeSet<>(ids));
        }

        boolean sameSpan(Linked o) {
            return type.equals(o.type)
                    && ((start == o.start && Math.abs(end - o.end) <= 1)
                            || (end == o.end && Math.abs(start - o.start) <= 1));
        }

        boolean sharesAnId(Linked o) {
            return ids.stream().anyMatch(o.ids::contains);
        }
    }

    private LinkedMentions() {}

    /** Adds one document's counts to {@code into}, by type. */
    public static void score(List<Linked> predicted, List<Linked> gold, Scores into) {
        List<Linked> open =
                new ArrayList<>(gold.stream().filter(g -> !g.ids().isEmpty()).toList());
        List<Linked> withoutId = gold.stream().filter(g -> g.ids().isEmpty()).toList();
        for (Linked p : predicted) {
            if (p.ids().isEmpty()) {
                continue;
            }
            Linked match = open.stream()
                    .filter(g -> g.sameSpan(p) && g.sharesAnId(p))
                    .findFirst()
                    .orElse(null);
            if (match != null) {
                open.remove(match);
                into.add(p.type(), 1, 0, 0);
            } else if (withoutId.stream().noneMatch(g -> g.sameSpan(p))) {
                into.add(p.type(), 0, 1, 0);
            }
        }
        open.forEach(g -> into.add(g.type(), 0, 0, 1));
    }
}
