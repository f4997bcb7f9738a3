package dev.bionerstream.linking;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.IntsRefBuilder;
import org.apache.lucene.util.fst.FST;
import org.apache.lucene.util.fst.FSTCompiler;
import org.apache.lucene.util.fst.PositiveIntOutputs;
import org.apache.lucene.util.fst.Util;

/**
 * The names of every named taxon of NCBI Taxonomy, looked up exactly by {@link NameKey}: viruses,
 * strains and subspecies that LINNAEUS's dictionary lacks ("Tick-borne encephalitis virus", "Human
 * papillomavirus type 8"). A million names as Java strings would take hundreds of MB of heap, so the
 * keys live in an FST (Lucene's finite state transducer: shared prefixes and suffixes stored once)
 * whose output is the taxon's index; the taxa and their scientific names sit in flat arrays.
 * Immutable and thread-safe once built.
 */
final class TaxonNames {
    private final FST<Long> byKey;
    private final int[] taxa;
    private final byte[] names;
    private final int[] nameStarts;

    private TaxonNames(FST<Long> byKey, int[] taxa, byte[] names, int[] nameStarts) {
        this.byKey = byKey;
        this.taxa = taxa;
        this.names = names;
        this.nameStarts = nameStarts;
    }

    /**
     * Reads {@code tax_id<TAB>name} rows after a header, grouped by taxon, its scientific name first. A
     * key several taxa share goes to the taxon whose scientific name it is, then to the smaller id.
     */
    static TaxonNames read(BufferedReader in) throws IOException {
        List<Integer> taxa = new ArrayList<>();
        List<byte[]> scientific = new ArrayList<>();
        List<Keyed> keys = new ArrayList<>();
        in.readLine();
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            int tab = line.indexOf('\t');
            if (tab <= 0) {
                throw new IllegalArgumentException("expected tax_id<TAB>name, got \"" + line + "\"");
            }
            int taxon = Integer.parseInt(line.substring(0, tab));
            String name = line.substring(tab + 1);
            boolean first = taxa.isEmpty() || taxa.get(taxa.size() - 1) != taxon;
            if (first) {
                if (!taxa.isEmpty() && taxa.get(taxa.size() - 1) > taxon) {
                    throw new IllegalArgumentException(
                            "taxa must come in the order of their ids, " + taxon + " is late");
                }
                taxa.add(taxon);
                scientific.add(name.getBytes(StandardCharsets.UTF_8));
            }
            String key = NameKey.of(name);
            if (!key.isEmpty()) {
                keys.add(new Keyed(new BytesRef(key), taxa.size() - 1, first));
            }
        }
        keys.sort(Comparator.comparing(Keyed::key)
                .thenComparing(k -> !k.scientific())
                .thenComparingInt(Keyed::taxon));
        FSTCompiler<Long> compiler =
                new FSTCompiler.Builder<>(FST.INPUT_TYPE.BYTE1, PositiveIntOutputs.getSingleton()).build();
        IntsRefBuilder scratch = new IntsRefBuilder();
        BytesRef previous = null;
        for (Keyed k : keys) {
            if (!k.key().equals(previous)) {
                compiler.add(Util.toIntsRef(k.key(), scratch), (long) k.taxon());
                previous = k.key();
            }
        }
        FST<Long> fst = FST.fromFSTReader(compiler.compile(), compiler.getFSTReader());
        int[] starts = new int[scientific.size() + 1];
        for (int i = 0; i < scientific.size(); i++) {
            starts[i + 1] = starts[i] + scientific.get(i).length;
        }
        byte[] all = new byte[starts[scientific.size()]];
        for (int i = 0; i < scientific.size(); i++) {
            System.arraycopy(scientific.get(i), 0, all, starts[i], scientific.get(i).length);
        }
        return new TaxonNames(fst, taxa.stream().mapToInt(Integer::intValue).toArray(), all, starts);
    }

    private record Keyed(BytesRef key, int taxon, boolean scientific) {}

    /** The taxon with a name of this key, as a concept named by its scientific name; null if none. */
    Concept exact(String key) {
        Long at;
        try {
            at = Util.get(byKey, new BytesRef(key));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return at == null ? null : concept(at.intValue());
    }

    /** Whether the taxon with this id is named here. */
    boolean has(int taxon) {
        return Arrays.binarySearch(taxa, taxon) >= 0;
    }

    /** How many taxa. */
    int size() {
        return taxa.length;
    }

    private Concept concept(int index) {
        String name =
                new String(names, nameStarts[index], nameStarts[index + 1] - nameStarts[index], StandardCharsets.UTF_8);
        return new Concept("ncbitaxon:" + taxa[index], name, 0, 0);
    }
}
