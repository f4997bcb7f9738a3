package dev.bionerstream.linking;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Approximate lookup of names by the cosine of their character-trigram TF-IDF vectors, as
 * scispaCy's linker does: "nephrotoxic" finds "nephrotoxicity". Built once over a vocabulary's
 * keys; thread-safe (each query takes a scratch buffer from a pool, so no state lives on the
 * callers' threads).
 */
final class TrigramIndex {
    /** A key of the index and its similarity to the query, in [0, 1]. */
    record Hit(int key, double score) {}

    /** Keys are mostly [a-z0-9 ]; any other character shares one code, so a trigram is a small int. */
    private static final int ALPHABET = 38;

    private static final int TRIGRAMS = ALPHABET * ALPHABET * ALPHABET;

    /**
     * Candidates are gathered from the query's rarest trigrams until this many postings are read
     * (but from at least {@link #MIN_SCANNED} trigrams), then the best {@link #CANDIDATES} of them
     * are scored exactly: a query costs about the same whatever its common trigrams ("ase", "ion").
     */
    private static final int SCAN_BUDGET = 20_000;

    private static final int MIN_SCANNED = 3;
    private static final int CANDIDATES = 200;

    private final int[][] postings = new int[TRIGRAMS][];
    private final float[] idf = new float[TRIGRAMS];
    private final float[] norms;
    private final String[] keys;
    private final ConcurrentLinkedQueue<Scratch> scratch = new ConcurrentLinkedQueue<>();

    TrigramIndex(String[] keys) {
        this.keys = keys;
        int[][] grams = new int[keys.length][];
        int[] counts = new int[TRIGRAMS];
        for (int k = 0; k < keys.length; k++) {
            grams[k] = trigrams(keys[k]);
            for (int g : grams[k]) {
                counts[g]++;
            }
        }
        float unknown = (float) Math.log(keys.length + 1.0);
        for (int g = 0; g < TRIGRAMS; g++) {
            // a trigram no key has still counts in the query's norm, as the rarest of all
            idf[g] = counts[g] == 0 ? unknown : (float) Math.log((keys.length + 1.0) / counts[g]);
            postings[g] = new int[counts[g]];
        }
        int[] filled = new int[TRIGRAMS];
        norms = new float[keys.length];
        for (int k = 0; k < keys.length; k++) {
            double sum = 0;
            for (int g : grams[k]) {
                postings[g][filled[g]++] = k;
                sum += idf[g] * idf[g];
            }
            norms[k] = (float) Math.sqrt(sum);
        }
    }

    /** The {@code limit} keys most similar to {@code key}, best first; ties by key index. */
    List<Hit> nearest(String key, int limit) {
        int[] grams = trigrams(key);
        if (grams.length == 0) {
            return List.of();
        }
        Scratch s = scratch.poll();
        if (s == null || s.scores.length != norms.length) {
            s = new Scratch(norms.length);
        }
        try {
            double queryNorm = 0;
            for (int g : grams) {
                queryNorm += idf[g] * idf[g];
            }
            double qn = Math.sqrt(queryNorm);
            // candidates from the query's rarest trigrams; a name similar enough to matter shares some
            // rarest first, ties by trigram: each packed as (postings, trigram), so a plain sort orders them
            long[] byRarity = new long[grams.length];
            for (int i = 0; i < grams.length; i++) {
                byRarity[i] = ((long) postings[grams[i]].length << 32) | grams[i];
            }
            Arrays.sort(byRarity);
            int scanned = 0;
            for (int i = 0; i < byRarity.length && (i < MIN_SCANNED || scanned < SCAN_BUDGET); i++) {
                int g = (int) byRarity[i];
                float w2 = idf[g] * idf[g];
                scanned += postings[g].length;
                for (int k : postings[g]) {
                    if (s.scores[k] == 0) {
                        s.touched[s.size++] = k;
                    }
                    s.scores[k] += w2;
                }
            }
            PriorityQueue<Hit> candidates = new PriorityQueue<>(TrigramIndex::worse);
            for (int i = 0; i < s.size; i++) {
                int k = s.touched[i];
                keep(candidates, new Hit(k, s.scores[k] / norms[k]), CANDIDATES);
                s.scores[k] = 0;
            }
            s.size = 0;
            // each candidate scored over all trigrams: the cosine, whatever was scanned
            PriorityQueue<Hit> best = new PriorityQueue<>(TrigramIndex::worse);
            for (Hit c : candidates) {
                keep(
                        best,
                        new Hit(c.key(), Math.min(1.0, dot(grams, trigrams(keys[c.key()])) / (qn * norms[c.key()]))),
                        limit);
            }
            List<Hit> hits = new ArrayList<>(best);
            hits.sort((a, b) -> worse(b, a));
            return hits;
        } finally {
            scratch.offer(s);
        }
    }

    /** The sum of the squared idf of the trigrams two sorted sets share. */
    private double dot(int[] a, int[] b) {
        double sum = 0;
        for (int i = 0, j = 0; i < a.length && j < b.length; ) {
            if (a[i] == b[j]) {
                sum += idf[a[i]] * idf[a[i]];
                i++;
                j++;
            } else if (a[i] < b[j]) {
                i++;
            } else {
                j++;
            }
        }
        return sum;
    }

    private static void keep(PriorityQueue<Hit> best, Hit h, int limit) {
        if (best.size() < limit) {
            best.add(h);
        } else if (worse(best.peek(), h) < 0) {
            best.poll();
            best.add(h);
        }
    }

    /** Orders hits worst first: lower score, then the later key. */
    private static int worse(Hit a, Hit b) {
        return a.score != b.score ? Double.compare(a.score, b.score) : Integer.compare(b.key, a.key);
    }

    /** The distinct trigrams of " key ", each the number of its three characters' codes. */
    static int[] trigrams(String key) {
        if (key.isEmpty()) {
            return new int[0];
        }
        String padded = " " + key + " ";
        int[] grams = new int[padded.length() - 2];
        for (int i = 0; i < grams.length; i++) {
            grams[i] = (code(padded.charAt(i)) * ALPHABET + code(padded.charAt(i + 1))) * ALPHABET
                    + code(padded.charAt(i + 2));
        }
        Arrays.sort(grams);
        int n = 0;
        for (int i = 0; i < grams.length; i++) {
            if (n == 0 || grams[n - 1] != grams[i]) {
                grams[n++] = grams[i];
            }
        }
        return Arrays.copyOf(grams, n);
    }

    private static int code(char c) {
        if (c >= 'a' && c <= 'z') {
            return c - 'a';
        }
        if (c >= '0' && c <= '9') {
            return 26 + c - '0';
        }
        return c == ' ' ? 36 : 37;
    }

    private static final class Scratch {
        final float[] scores;
        final int[] touched;
        int size;

        Scratch(int keys) {
            scores = new float[keys];
            touched = new int[keys];
        }
    }
}
