package dev.bionerstream.linking;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The concepts of one entity type and every name they go by, looked up by {@link NameKey}: exactly,
 * or approximately by character trigrams. Immutable and thread-safe; built once per JVM.
 */
public final class Vocabulary {
    private final String lineage;
    private final Concept[] concepts;
    private final String[] keys;
    private final int[][] entries;
    /** Each concept's keys (indices into {@link #keys}), and the concepts' indices sorted by id. */
    private final int[][] conceptKeys;

    private final int[] byId;
    private final TrigramIndex trigrams;
    private final Map<String, Set<String>> sameAs;
    private final Set<String> superseded;
    private final Set<Integer> taxa;
    private final Map<String, List<String>> orthologs;
    private final TaxonNames taxonNames;
    private static final String TAXON = "ncbitaxon:";

    private Vocabulary(
            String lineage,
            Concept[] concepts,
            String[] keys,
            int[][] entries,
            Map<String, Set<String>> sameAs,
            Set<String> superseded,
            Map<String, List<String>> orthologs,
            TaxonNames taxonNames) {
        this.lineage = lineage;
        this.concepts = concepts;
        this.keys = keys;
        this.entries = entries;
        this.conceptKeys = conceptKeys(concepts.length, entries);
        this.byId = IntStream.range(0, concepts.length)
                .boxed()
                .sorted(Comparator.comparing(i -> concepts[i].id()))
                .mapToInt(Integer::intValue)
                .toArray();
        this.trigrams = new TrigramIndex(keys);
        this.sameAs = sameAs;
        this.superseded = superseded;
        this.orthologs = orthologs;
        this.taxonNames = taxonNames;
        this.taxa =
                Arrays.stream(concepts).map(Concept::taxon).filter(t -> t != 0).collect(Collectors.toUnmodifiableSet());
    }

    /**
     * The ids the vocabulary's sources declare the same concept as {@code id}, itself included:
     * MEDIC's alternative ids, and the ids a newer source replaced by it or it by.
     */
    public Set<String> sameAs(String id) {
        return sameAs.getOrDefault(id, Set.of(id));
    }

    /** Whether a newer source replaced {@code id} (its concept is another id now; the vocabulary never gives it). */
    public boolean isSuperseded(String id) {
        return superseded.contains(id);
    }

    /** The taxa of its concepts (genes: the species whose genes it holds); empty for a vocabulary without taxa. */
    public Set<Integer> taxa() {
        return taxa;
    }

    /** The concepts its source declares orthologs of {@code c} (a human gene's mouse gene and back). */
    public List<Concept> orthologs(Concept c) {
        return orthologs.getOrDefault(c.id(), List.of()).stream()
                .map(id -> concepts[index(id)])
                .toList();
    }

    /** Whether {@code id} is a concept of this vocabulary (a named taxon of its taxonomy included). */
    public boolean has(String id) {
        return index(id) >= 0 || (taxonNames != null && id.startsWith(TAXON) && taxonNames.has(SpeciesNames.taxon(id)));
    }

    /**
     * The named taxon of NCBI Taxonomy with a name of this key, when the vocabulary carries the
     * taxonomy's names (species): the concept the vocabulary has for it, else one named by its
     * scientific name; null if none.
     */
    public Candidate taxon(String key) {
        Concept t = taxonNames == null ? null : taxonNames.exact(key);
        if (t == null) {
            return null;
        }
        int at = index(t.id());
        return new Candidate(at >= 0 ? concepts[at] : t, NameSource.SYNONYM, 1.0);
    }

    /** How many taxa its taxonomy names (0 without one). */
    public int taxonomySize() {
        return taxonNames == null ? 0 : taxonNames.size();
    }

    /** name:version of the bundle(s) it was read from, e.g. {@code bioner-vocab-gene:2024.1}. */
    public String lineage() {
        return lineage;
    }

    public int concepts() {
        return concepts.length;
    }

    public int keys() {
        return keys.length;
    }

    /**
     * The concepts a name with this key stands for, in the order of {@link NameSource}, then the
     * corpora's mentions, the concept's weight and its id.
     */
    public List<Candidate> exact(String key) {
        int k = Arrays.binarySearch(keys, key);
        return k < 0 ? List.of() : candidates(k, 1.0);
    }

    /** Whether some key starts with {@code prefix} followed by a space: a longer name may still match. */
    public boolean continues(String prefix) {
        String from = prefix + " ";
        int k = Arrays.binarySearch(keys, from);
        int at = k < 0 ? -k - 1 : k;
        return at < keys.length && keys[at].startsWith(from);
    }

    /**
     * Concepts of the {@code limit} names nearest to {@code key}, best match first (then as {@link
     * #exact}); each name's score is its trigram cosine with the key.
     */
    public List<Candidate> similar(String key, int limit) {
        List<Candidate> out = new ArrayList<>();
        for (TrigramIndex.Hit h : trigrams.nearest(key, limit)) {
            out.addAll(candidates(h.key(), h.score()));
        }
        return out;
    }

    /** The keys of every name of a concept of this vocabulary (none for another's). */
    public List<String> keysOf(Concept c) {
        int at = index(c.id());
        return at < 0
                ? List.of()
                : Arrays.stream(conceptKeys[at]).mapToObj(k -> keys[k]).toList();
    }

    /** The index of the concept with this id in {@link #concepts}, or -1. */
    private int index(String id) {
        int lo = 0;
        int hi = byId.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int cmp = concepts[byId[mid]].id().compareTo(id);
            if (cmp == 0) {
                return byId[mid];
            }
            if (cmp < 0) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return -1;
    }

    private static int[][] conceptKeys(int concepts, int[][] entries) {
        int[] counts = new int[concepts];
        for (int[] e : entries) {
            for (int x : e) {
                counts[x >>> 2]++;
            }
        }
        int[][] out = new int[concepts][];
        for (int c = 0; c < concepts; c++) {
            out[c] = new int[counts[c]];
            counts[c] = 0;
        }
        for (int k = 0; k < entries.length; k++) {
            for (int x : entries[k]) {
                out[x >>> 2][counts[x >>> 2]++] = k;
            }
        }
        return out;
    }

    private List<Candidate> candidates(int key, double score) {
        int[] e = entries[key];
        List<Candidate> out = new ArrayList<>(e.length);
        for (int x : e) {
            out.add(new Candidate(concepts[x >>> 2], NameSource.values()[x & 3], score));
        }
        return out;
    }

    /** Collects concepts and names, then indexes them; later names of a concept add to earlier ones. */
    public static final class Builder {
        /** A name of a concept; {@code mentions}: how often corpora annotate it so (0 for a vocabulary's own). */
        private record Name(String key, int concept, NameSource source, int mentions) {
            /** The better of two names of one concept: the earlier source, then the more mentions. */
            Name or(Name o) {
                int bySource = source.compareTo(o.source);
                return bySource < 0 || (bySource == 0 && mentions >= o.mentions) ? this : o;
            }
        }

        private final List<String> lineage = new ArrayList<>();
        private final Map<String, Integer> conceptIndex = new HashMap<>();
        private final List<Concept> concepts = new ArrayList<>();
        private final List<Name> names = new ArrayList<>();
        private final Map<String, Set<String>> sameAs = new HashMap<>();
        private final Set<String> superseded = new HashSet<>();
        private final Map<String, List<String>> orthologs = new HashMap<>();
        private TaxonNames taxonNames;

        /** Declares that a newer source replaced {@code old} by {@code current} (they are the same concept). */
        public Builder superseded(String old, String current) {
            superseded.add(old);
            return sameAs(old, current);
        }

        /** The names of every named taxon, looked up when the vocabulary's own names miss. */
        Builder taxonNames(TaxonNames names) {
            taxonNames = names;
            return this;
        }

        /** Declares two concepts orthologs, both ways; ids the vocabulary lacks are left out when it is built. */
        public Builder orthologs(String id, String ortholog) {
            orthologs.computeIfAbsent(id, k -> new ArrayList<>()).add(ortholog);
            orthologs.computeIfAbsent(ortholog, k -> new ArrayList<>()).add(id);
            return this;
        }

        /** Declares two ids names of one concept (both ways). */
        public Builder sameAs(String id, String alt) {
            sameAs.computeIfAbsent(id, k -> new TreeSet<>(Set.of(k))).add(alt);
            sameAs.computeIfAbsent(alt, k -> new TreeSet<>(Set.of(k))).add(id);
            return this;
        }

        public Builder lineage(String nameAndVersion) {
            lineage.add(nameAndVersion);
            return this;
        }

        /** Adds a concept, or replaces the one with its id (a user's vocabulary over the bundle's). */
        public Builder concept(Concept c) {
            Integer at = conceptIndex.putIfAbsent(c.id(), concepts.size());
            if (at == null) {
                concepts.add(c);
            } else {
                concepts.set(at, c);
            }
            return name(c.id(), c.name(), NameSource.PREFERRED);
        }

        public boolean has(String id) {
            return conceptIndex.containsKey(id);
        }

        /** A name of a known concept; a name whose key is empty (punctuation only) is left out. */
        public Builder name(String id, String name, NameSource source) {
            return name(id, name, source, 0);
        }

        /** A name an annotated corpus links to the concept {@code mentions} times. */
        public Builder corpusName(String id, String name, int mentions) {
            return name(id, name, NameSource.CORPUS, mentions);
        }

        private Builder name(String id, String name, NameSource source, int mentions) {
            Integer c = conceptIndex.get(id);
            if (c == null) {
                throw new IllegalArgumentException("no concept " + id + " for the name " + name);
            }
            String key = NameKey.of(name);
            if (!key.isEmpty()) {
                names.add(new Name(key, c, source, mentions));
            }
            return this;
        }

        /**
         * How many of a concept's names hold {@code key} as words: a name that recurs in a concept's
         * names is what it is called ("p38": MAP kinase p38 alpha, p38 MAP kinase ... for MAPK14, one
         * alias of GRAP2).
         */
        private static int recurrences(String key, List<String> conceptKeys) {
            String words = " " + key + " ";
            int n = 0;
            for (String k : conceptKeys) {
                if ((" " + k + " ").contains(words)) {
                    n++;
                }
            }
            return n;
        }

        public Vocabulary build() {
            Concept[] cs = concepts.toArray(Concept[]::new);
            names.sort(Comparator.comparing(Name::key));
            List<List<String>> keysOf = new ArrayList<>(cs.length);
            for (int c = 0; c < cs.length; c++) {
                keysOf.add(new ArrayList<>(2));
            }
            for (Name n : names) {
                keysOf.get(n.concept()).add(n.key());
            }
            List<String> keys = new ArrayList<>();
            List<int[]> entries = new ArrayList<>();
            for (int from = 0; from < names.size(); ) {
                String key = names.get(from).key();
                int to = from;
                Map<Integer, Name> best = new HashMap<>();
                while (to < names.size() && names.get(to).key().equals(key)) {
                    Name n = names.get(to++);
                    best.merge(n.concept(), n, Name::or);
                }
                List<Name> byPreference = new ArrayList<>(best.values());
                if (byPreference.size() > 1) {
                    Map<Name, Integer> recurring = new HashMap<>();
                    byPreference.forEach(n -> recurring.put(n, recurrences(key, keysOf.get(n.concept()))));
                    byPreference.sort(Comparator.comparing(Name::source)
                            .thenComparing(n -> -n.mentions())
                            .thenComparing(n -> -recurring.get(n))
                            .thenComparing(n -> -cs[n.concept()].weight())
                            .thenComparing(n -> cs[n.concept()].id()));
                }
                int[] e = new int[byPreference.size()];
                for (int i = 0; i < e.length; i++) {
                    e[i] = (byPreference.get(i).concept() << 2)
                            | byPreference.get(i).source().ordinal();
                }
                keys.add(key);
                entries.add(e);
                from = to;
            }
            names.clear();
            return new Vocabulary(
                    String.join("+", lineage),
                    cs,
                    keys.toArray(String[]::new),
                    entries.toArray(int[][]::new),
                    Map.copyOf(sameAs),
                    Set.copyOf(superseded),
                    orthologs.entrySet().stream()
                            .filter(e -> conceptIndex.containsKey(e.getKey()))
                            .collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, e -> e.getValue().stream()
                                    .filter(conceptIndex::containsKey)
                                    .sorted()
                                    .toList())),
                    taxonNames);
        }
    }
}
