package dev.bionerstream.syntax;

import java.util.ArrayList;
import java.util.List;

/**
 * Dependencies derived from POS tags and chunks by head rules, since no permissively licensed
 * toolkit on Maven Central parses dependencies. Inside a chunk every word depends on the chunk's
 * head (the last word of a noun, adjective or adverb phrase, the last verb of a verb phrase, the
 * first word of other chunks), labelled {@code <chunk>-dep}. Between chunks: the first verb-phrase
 * head is the root; a prepositional head governs the next noun-phrase head ({@code pobj}) and
 * depends on the previous chunk head ({@code prep}); a noun-phrase head depends on the nearest
 * verb-phrase head ({@code nsubj} before it, {@code obj} after it); any other word or chunk head
 * depends on the root ({@code punct} for punctuation, else its chunk type or {@code dep}). Coarser
 * than a parser, but the same on both sides and a tree.
 */
public final class HeadRules {
    private final int[] governor; // -1 for the root
    private final String[] relation;

    private HeadRules(int[] governor, String[] relation) {
        this.governor = governor;
        this.relation = relation;
    }

    public static HeadRules parse(String[] tags, String[] chunks) {
        int n = tags.length;
        int[] gov = new int[n];
        String[] rel = new String[n];
        int[] head = new int[n]; // the head of each word's chunk (itself outside chunks)
        List<Integer> heads = new ArrayList<>();
        for (int i = 0; i < n; ) {
            int end = chunks[i].equals("O") ? i + 1 : chunkEnd(chunks, i);
            int h = chunkHead(tags, chunks, i, end);
            for (int k = i; k < end; k++) {
                head[k] = h;
            }
            heads.add(h);
            i = end;
        }
        int root = -1;
        for (int h : heads) {
            if (type(chunks[h]).equals("VP")) {
                root = h;
                break;
            }
        }
        if (root < 0 && n > 0) {
            root = heads.stream()
                    .filter(h -> type(chunks[h]).equals("NP"))
                    .findFirst()
                    .orElse(heads.get(0));
        }
        for (int i = 0; i < n; i++) {
            if (head[i] != i) {
                gov[i] = head[i];
                rel[i] = type(chunks[i]) + "-dep";
            }
        }
        for (int k = 0; k < heads.size(); k++) {
            int h = heads.get(k);
            String t = type(chunks[h]);
            if (h == root) {
                gov[h] = -1;
                rel[h] = "root";
            } else if (t.equals("NP") && k > 0 && type(chunks[heads.get(k - 1)]).equals("PP")) {
                gov[h] = heads.get(k - 1);
                rel[h] = "pobj";
            } else if (t.equals("PP") && k > 0) {
                gov[h] = heads.get(k - 1);
                rel[h] = "prep";
            } else if (t.equals("NP") && nearestVerb(heads, chunks, k) >= 0) {
                gov[h] = nearestVerb(heads, chunks, k);
                rel[h] = gov[h] > h ? "nsubj" : "obj";
            } else {
                gov[h] = root;
                rel[h] =
                        isPunctuation(tags[h]) ? "punct" : t.equals("O") ? "dep" : t.toLowerCase(java.util.Locale.ROOT);
            }
        }
        return new HeadRules(gov, rel);
    }

    /** Each word, its governor and its dependents (in sentence order), labelled with their own relations. */
    public List<List<Context>> contexts() {
        List<List<Context>> out = new ArrayList<>(governor.length);
        for (int i = 0; i < governor.length; i++) {
            List<Context> c = new ArrayList<>();
            c.add(new Context(i, relation[i]));
            if (governor[i] >= 0) {
                c.add(new Context(governor[i], relation[governor[i]]));
            }
            for (int k = 0; k < governor.length; k++) {
                if (governor[k] == i) {
                    c.add(new Context(k, relation[k]));
                }
            }
            out.add(c);
        }
        return out;
    }

    public int governor(int word) {
        return governor[word];
    }

    public String relation(int word) {
        return relation[word];
    }

    private static int nearestVerb(List<Integer> heads, String[] chunks, int k) {
        for (int d = 1; d < heads.size(); d++) {
            for (int j : new int[] {k - d, k + d}) {
                if (j >= 0 && j < heads.size() && type(chunks[heads.get(j)]).equals("VP")) {
                    return heads.get(j);
                }
            }
        }
        return -1;
    }

    private static int chunkHead(String[] tags, String[] chunks, int first, int end) {
        String t = type(chunks[first]);
        if (t.equals("VP")) {
            for (int k = end - 1; k >= first; k--) {
                if (tags[k].startsWith("V") || tags[k].equals("MD")) {
                    return k;
                }
            }
            return end - 1;
        }
        return t.equals("NP") || t.equals("ADJP") || t.equals("ADVP") ? end - 1 : first;
    }

    private static boolean isPunctuation(String tag) {
        return !tag.isEmpty() && !Character.isLetter(tag.charAt(0));
    }

    /** NP of B-NP / I-NP; O stays O. */
    static String type(String chunk) {
        return chunk.length() > 2 && chunk.charAt(1) == '-' ? chunk.substring(2) : chunk;
    }

    /** The first word of the chunk holding word {@code i}. */
    static int chunkStart(String[] chunks, int i) {
        int k = i;
        while (k > 0
                && chunks[k].startsWith("I-")
                && type(chunks[k - 1]).equals(type(chunks[k]))
                && !chunks[k - 1].equals("O")) {
            k--;
        }
        return k;
    }

    /** One past the last word of the chunk starting at or holding word {@code i}. */
    static int chunkEnd(String[] chunks, int i) {
        int k = i + 1;
        while (k < chunks.length
                && chunks[k].startsWith("I-")
                && type(chunks[k]).equals(type(chunks[i]))) {
            k++;
        }
        return k;
    }
}
