package dev.bionerstream.eval;

import java.util.List;
import java.util.Set;
import java.util.TreeMap;

/**
 * Accuracy@1 of a linker on gold mentions, per type: a mention with one gold id (or several
 * alternatives, such as BC5CDR's "RD" {@code C467567|D003907}) is right when its top concept is one
 * of them; a composite mention ("breast and ovarian cancer", several ids) when the linker gives
 * exactly its set of ids. Mentions without a gold id ({@code -1}) are skipped and counted. As
 * BioSyn's accuracy@1, the top candidate counts whatever its score; how many scored under the
 * linker's minimum (NIL in the stream) is counted beside.
 */
public final class LinkingAccuracy {
    /** Counts of one type; accuracy over the mentions with a gold id, no candidate at all counted wrong. */
    public record Counts(long mentions, long correct, long underMinScore, long skipped) {
        public double accuracy() {
            return mentions == 0 ? 0 : (double) correct / mentions;
        }

        Counts plus(Counts o) {
            return new Counts(
                    mentions + o.mentions, correct + o.correct, underMinScore + o.underMinScore, skipped + o.skipped);
        }
    }

    private final TreeMap<String, Counts> byType = new TreeMap<>();

    /**
     * Adds one gold mention.
     *
     * @param gold its gold ids (empty: none, skipped)
     * @param composite whether the mention coordinates several concepts (all must be found)
     * @param predicted the linker's ids, best first; empty for no candidate
     * @param underMinScore whether the top candidate scored under the linker's minimum
     * @return false for a miss (a mention with a gold id linked wrongly or not at all)
     */
    public boolean add(
            String type, Set<String> gold, boolean composite, List<String> predicted, boolean underMinScore) {
        Counts c;
        boolean right = true;
        if (gold.isEmpty()) {
            c = new Counts(0, 0, 0, 1);
        } else {
            right = !predicted.isEmpty()
                    && (composite && gold.size() > 1
                            ? Set.copyOf(predicted).equals(gold)
                            : gold.contains(predicted.get(0)));
            c = new Counts(1, right ? 1 : 0, underMinScore ? 1 : 0, 0);
        }
        byType.merge(type, c, Counts::plus);
        return right;
    }

    public Counts get(String type) {
        return byType.getOrDefault(type, new Counts(0, 0, 0, 0));
    }

    public String table() {
        StringBuilder sb = new StringBuilder(String.format(
                "%-18s %9s %9s %9s %9s %8s%n", "type", "mentions", "correct", "acc@1", "under-min", "skipped"));
        byType.forEach((t, c) -> sb.append(String.format(
                "%-18s %9d %9d %9.4f %9d %8d%n",
                t, c.mentions(), c.correct(), c.accuracy(), c.underMinScore(), c.skipped())));
        return sb.toString();
    }
}
