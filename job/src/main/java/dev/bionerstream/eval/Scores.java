package dev.bionerstream.eval;

import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/** Exact-match counts per type and overall ("all"): entity spans, or a document's concepts. */
public final class Scores {
    public static final String ALL = "all";

    /** Counts and derived precision, recall and F1 (0..100). */
    public record Counts(long tp, long fp, long fn) {
        public double precision() {
            return tp + fp == 0 ? 0 : 100.0 * tp / (tp + fp);
        }

        public double recall() {
            return tp + fn == 0 ? 0 : 100.0 * tp / (tp + fn);
        }

        public double f1() {
            double p = precision();
            double r = recall();
            return p + r == 0 ? 0 : 2 * p * r / (p + r);
        }

        Counts plus(long dtp, long dfp, long dfn) {
            return new Counts(tp + dtp, fp + dfp, fn + dfn);
        }
    }

    private final TreeMap<String, Counts> byType = new TreeMap<>();

    /** Adds one sentence: predicted and gold spans of the evaluated types. */
    public void add(Collection<Span> predicted, Collection<Span> gold) {
        add(predicted, gold, Span::type);
    }

    /** Adds one unit (a sentence's spans, a document's concepts): what is predicted and what is gold, by type. */
    public <T> void add(Collection<T> predicted, Collection<T> gold, Function<T, String> typeOf) {
        Set<T> p = new HashSet<>(predicted);
        Set<T> g = new HashSet<>(gold);
        Set<String> types = new HashSet<>();
        p.forEach(s -> types.add(typeOf.apply(s)));
        g.forEach(s -> types.add(typeOf.apply(s)));
        for (String t : types) {
            long tp = p.stream()
                    .filter(s -> typeOf.apply(s).equals(t) && g.contains(s))
                    .count();
            long fp = p.stream().filter(s -> typeOf.apply(s).equals(t)).count() - tp;
            long fn = g.stream().filter(s -> typeOf.apply(s).equals(t)).count() - tp;
            byType.merge(t, new Counts(tp, fp, fn), (a, b) -> a.plus(b.tp(), b.fp(), b.fn()));
            byType.merge(ALL, new Counts(tp, fp, fn), (a, b) -> a.plus(b.tp(), b.fp(), b.fn()));
        }
    }

    /** Adds counts decided by another rule than equality (one type, and "all"). */
    public void add(String type, long tp, long fp, long fn) {
        byType.merge(type, new Counts(tp, fp, fn), (a, b) -> a.plus(b.tp(), b.fp(), b.fn()));
        byType.merge(ALL, new Counts(tp, fp, fn), (a, b) -> a.plus(b.tp(), b.fp(), b.fn()));
    }

    public Counts get(String type) {
        return byType.getOrDefault(type, new Counts(0, 0, 0));
    }

    /** Types in name order, then "all". */
    public String table() {
        StringBuilder sb = new StringBuilder(String.format(
                "%-18s %9s %9s %9s %7s %7s %7s%n", "type", "precision", "recall", "f1", "tp", "fp", "fn"));
        byType.forEach((t, c) -> {
            if (!t.equals(ALL)) {
                sb.append(row(t, c));
            }
        });
        sb.append(row(ALL, get(ALL)));
        return sb.toString();
    }

    private static String row(String t, Counts c) {
        return String.format(
                "%-18s %9.2f %9.2f %9.2f %7d %7d %7d%n", t, c.precision(), c.recall(), c.f1(), c.tp(), c.fp(), c.fn());
    }
}
