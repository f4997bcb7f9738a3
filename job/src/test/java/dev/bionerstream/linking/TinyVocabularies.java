package dev.bionerstream.linking;

import dev.bionerstream.text.DocumentText;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

/**
 * Vocabulary bundles of a few concepts, written by the test into a folder in the format {@link
 * VocabularyFiles} reads and model-export's {@code bioner_vocab.build} writes ({@code vocabulary.json},
 * {@code concepts.tsv.gz}, {@code corpus-names.tsv.gz}, and where given {@code alt-ids.tsv.gz}, {@code
 * superseded.tsv.gz}, {@code orthologs.tsv.gz}, {@code taxonomy.tsv.xz}), so that a rule of the linker
 * is tested on names the test shows rather than on the shipped vocabularies' 15 MB: they load in
 * milliseconds, and a test fails only when its rule breaks, not when a source's names change.
 *
 * <p>{@link #world} is one small world of the four shipped types that most rule tests share; a test
 * that needs other names writes its own {@link Bundle}s.
 */
public final class TinyVocabularies {
    static final int HUMAN = EntityLinker.HUMAN;
    static final int MOUSE = EntityLinker.MOUSE;
    static final int RAT = EntityLinker.RAT;
    static final int YEAST = 4932;
    /** The gene bundle's weight of a protein-coding gene: 1000 plus its number of names. */
    static final long CODING = 1005;

    private TinyVocabularies() {}

    /** A bundle of one entity type, written by {@link #writeTo}. */
    static final class Bundle {
        private final String type;
        private final List<String> concepts = new ArrayList<>();
        private final List<String> corpusNames = new ArrayList<>();
        private final List<String> altIds = new ArrayList<>();
        private final List<String> superseded = new ArrayList<>();
        private final List<String> orthologs = new ArrayList<>();
        private final Map<Integer, List<String>> taxonomy = new TreeMap<>();

        Bundle(String type) {
            this.type = type;
        }

        String type() {
            return type;
        }

        /** A concept of no taxon and weight 0, by its preferred name and synonyms. */
        Bundle concept(String id, String name, String... synonyms) {
            return concept(id, name, 0, 0, synonyms);
        }

        /** A gene of {@code taxon}; a protein-coding one weighs at least 1000 ({@link #CODING}). */
        Bundle concept(String id, String name, int taxon, long weight, String... synonyms) {
            concepts.add(String.join(
                    "\t",
                    id,
                    name,
                    String.join("|", synonyms),
                    taxon == 0 ? "" : Integer.toString(taxon),
                    weight == 0 ? "" : Long.toString(weight)));
            return this;
        }

        /** A name an annotated corpus links to {@code id} so many times (a new concept if the bundle lacks it). */
        Bundle corpusName(String id, String name, int mentions) {
            return corpusName(id, name, mentions, 0);
        }

        /** As {@link #corpusName(String, String, int)}, for a gene of a species outside the concepts. */
        Bundle corpusName(String id, String name, int mentions, int taxon) {
            corpusNames.add(String.join(
                    "\t",
                    id,
                    name,
                    "Tiny-train",
                    Integer.toString(mentions),
                    taxon == 0 ? "" : Integer.toString(taxon)));
            return this;
        }

        /** An id the source declares the same concept (MEDIC's alternative ids). */
        Bundle altId(String id, String altId) {
            altIds.add(id + "\t" + altId);
            return this;
        }

        /** An id a newer source replaced. */
        Bundle superseded(String id, String currentId) {
            superseded.add(id + "\t" + currentId + "\treplaced-by-a-concept-with-its-name");
            return this;
        }

        /** A human gene and its mouse ortholog. */
        Bundle ortholog(String id, String orthologId) {
            orthologs.add(id + "\t" + orthologId);
            return this;
        }

        /** A named taxon of NCBI Taxonomy, its scientific name first (the species bundle's taxonomy). */
        Bundle taxon(int taxId, String scientificName, String... names) {
            List<String> all = taxonomy.computeIfAbsent(taxId, k -> new ArrayList<>());
            all.add(scientificName);
            all.addAll(List.of(names));
            return this;
        }

        /** Writes the bundle into {@code dir/TYPE}; returns that folder. */
        Path writeTo(Path dir) {
            try {
                Path bundle = Files.createDirectories(dir.resolve(type));
                StringBuilder manifest = new StringBuilder("{\"format\": 1, \"name\": \"tiny-" + type
                        + "\", \"version\": \"1\", \"entity_type\": \"" + type + "\", \"concepts\": "
                        + concepts.size());
                gzip(bundle.resolve("concepts.tsv.gz"), "id\tname\tsynonyms\ttaxon\tweight", concepts);
                gzip(bundle.resolve("corpus-names.tsv.gz"), "id\tname\tsource\tmentions\ttaxon", corpusNames);
                if (!altIds.isEmpty()) {
                    manifest.append(", \"alt_ids\": ").append(altIds.size());
                    gzip(bundle.resolve("alt-ids.tsv.gz"), "id\talt_id", altIds);
                }
                if (!superseded.isEmpty()) {
                    manifest.append(", \"superseded\": ").append(superseded.size());
                    gzip(bundle.resolve("superseded.tsv.gz"), "id\tcurrent_id\twhy", superseded);
                }
                if (!orthologs.isEmpty()) {
                    manifest.append(", \"orthologs\": ").append(orthologs.size());
                    gzip(bundle.resolve("orthologs.tsv.gz"), "id\tortholog_id", orthologs);
                }
                if (!taxonomy.isEmpty()) {
                    manifest.append(", \"taxonomy\": ").append(taxonomy.size());
                    StringBuilder rows = new StringBuilder("tax_id\tname\n");
                    taxonomy.forEach((taxon, names) -> names.forEach(
                            n -> rows.append(taxon).append('\t').append(n).append('\n')));
                    try (OutputStream out = new XZOutputStream(
                            Files.newOutputStream(bundle.resolve("taxonomy.tsv.xz")), new LZMA2Options())) {
                        out.write(rows.toString().getBytes(StandardCharsets.UTF_8));
                    }
                }
                Files.writeString(
                        bundle.resolve("vocabulary.json"), manifest.append("}").toString());
                return bundle;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private static void gzip(Path file, String header, List<String> rows) throws IOException {
            StringBuilder text = new StringBuilder(header).append('\n');
            rows.forEach(r -> text.append(r).append('\n'));
            try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
                out.write(text.toString().getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    static Bundle bundle(String type) {
        return new Bundle(type);
    }

    /** A linker of these bundles, written into {@code dir}, genes following the document's species. */
    static EntityLinker linker(Path dir, Bundle... bundles) {
        return linker(dir, List.of(), bundles);
    }

    /** A linker of these bundles, genes restricted to {@code geneSpecies} (empty: the document's species). */
    static EntityLinker linker(Path dir, List<Integer> geneSpecies, Bundle... bundles) {
        Map<String, String> locations = new TreeMap<>();
        for (Bundle b : bundles) {
            locations.put(b.type(), b.writeTo(dir).toString());
        }
        return EntityLinker.open(
                new LinkSettings(locations, Map.of(), Map.of(), geneSpecies, LinkSettings.DEFAULT_MIN_SCORE));
    }

    /** The small world most rule tests share: {@link #chemicals}, {@link #diseases}, {@link #genes}, {@link #species}. */
    static EntityLinker world(Path dir) {
        return linker(dir, chemicals(), diseases(), genes(), species());
    }

    /**
     * The small world's bundles written into {@code dir}, as the value of the job's {@code
     * link.bundles} ({@code TYPE=DIR} pairs): a job that loads them runs every step of the linker's
     * loading, every kind of vocabulary file included, in milliseconds instead of the shipped
     * vocabularies' 15 seconds.
     */
    public static String worldBundles(Path dir) {
        List<String> pairs = new ArrayList<>();
        for (Bundle b : List.of(chemicals(), diseases(), genes(), species())) {
            pairs.add(b.type() + "=" + b.writeTo(dir));
        }
        return String.join(",", pairs);
    }

    private static EntityLinker world;

    /** {@link #world(Path)} written once per test JVM into a folder removed when the JVM exits. */
    static synchronized EntityLinker world() {
        if (world == null) {
            try {
                Path dir = Files.createTempDirectory("tiny-vocabularies");
                Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(dir)));
                world = world(dir);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return world;
    }

    private static void delete(Path dir) {
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary folder the system cleans up in the end
        }
    }

    /** The link of {@code mention}, of {@code type}, where it stands first in the document {@code text}. */
    static Link first(EntityLinker linker, String text, String type, String mention) {
        return linkAt(linker, text, type, mention, text.indexOf(mention));
    }

    /** The link of {@code mention} where it stands last in {@code text}: after its definition, for an abbreviation. */
    static Link last(EntityLinker linker, String text, String type, String mention) {
        return linkAt(linker, text, type, mention, text.lastIndexOf(mention));
    }

    private static Link linkAt(EntityLinker linker, String text, String type, String mention, int at) {
        return linker.link(DocumentText.of(text), List.of(new Mention(type, mention, at)))
                .get(0);
    }

    static Bundle chemicals() {
        return bundle("chemical")
                .concept("mesh:D1", "Naloxone", "Naloxone Hydrochloride")
                .concept("mesh:D2", "Acetaminophen", "Paracetamol", "Tylenol")
                .concept("mesh:D3", "Clonidine")
                .concept("mesh:D4", "Amisulpride")
                // a protein MeSH files under chemicals, whose entry term a short form is near
                .concept("mesh:D5", "Leptin", "Ob Protein", "Ob Gene Product", "Gene Product, Ob", "Obese Protein")
                .superseded("mesh:C4", "mesh:D4");
    }

    static Bundle diseases() {
        return bundle("disease")
                .concept("mesh:D10", "Seizures", "Convulsions")
                .concept("mesh:D11", "Prostatic Neoplasms", "Prostate Cancer")
                .concept("mesh:D12", "Breast Neoplasms", "Breast Cancer")
                .concept("mesh:D13", "Ovarian Neoplasms", "Ovarian Cancer")
                .concept("mesh:C14", "Thyroid Dyshormonogenesis 1", "Iodide transport defect")
                .concept("mesh:D15", "Nephrotoxicity")
                .concept("mesh:D16", "Cardiomyopathies")
                .altId("mesh:C14", "omim:274400");
    }

    static Bundle genes() {
        return bundle("gene")
                .concept("ncbigene:7157", "TP53", HUMAN, CODING, "p53", "tumor protein p53")
                .concept("ncbigene:22059", "Trp53", MOUSE, CODING, "p53", "transformation related protein 53")
                .concept("ncbigene:672", "BRCA1", HUMAN, CODING, "breast cancer 1")
                .concept("ncbigene:12189", "Brca1", MOUSE, CODING, "breast cancer 1")
                .concept("ncbigene:2908", "NR3C1", HUMAN, CODING, "GR", "glucocorticoid receptor")
                .concept("ncbigene:14815", "Nr3c1", MOUSE, CODING, "GR", "glucocorticoid receptor")
                // a symbol two mouse genes share, and a non-coding transcript of that name
                .concept("ncbigene:14062", "F2r", MOUSE, CODING, "PAR1", "proteinase-activated receptor 1")
                .concept(
                        "ncbigene:13728",
                        "Mark2",
                        MOUSE,
                        CODING,
                        "PAR1",
                        "MAP/microtubule affinity-regulating kinase 2")
                .concept("ncbigene:18555", "Par1", MOUSE, 3, "PAR1")
                // a name only the human gene has: the mouse gene is its ortholog
                .concept("ncbigene:356", "FASLG", HUMAN, CODING, "Fas ligand")
                .concept("ncbigene:14103", "Fasl", MOUSE, CODING)
                .ortholog("ncbigene:356", "ncbigene:14103")
                .concept("ncbigene:627", "BDNF", HUMAN, CODING, "brain derived neurotrophic factor")
                .concept("ncbigene:1499", "CTNNB1", HUMAN, CODING, "beta-catenin")
                .concept("ncbigene:5888", "RAD51", HUMAN, CODING, "RAD51 recombinase")
                // an alias two human genes share: one of them is named by it again and again
                .concept("ncbigene:1432", "MAPK14", HUMAN, CODING, "p38", "p38 MAP kinase", "MAP kinase p38 alpha")
                .concept("ncbigene:9402", "GRAP2", HUMAN, CODING + 5, "P38", "GADS", "Mona", "GRID")
                // a rat gene the concepts lack, which a training corpus annotates
                .corpusName("ncbigene:24225", "Bdnf", 3, RAT)
                .corpusName("ncbigene:24225", "BDNF", 2, RAT);
    }

    static Bundle species() {
        return bundle("species")
                .concept("ncbitaxon:9606", "Homo sapiens", "human", "humans", "patients", "patient", "women", "family")
                .concept("ncbitaxon:10090", "Mus musculus", "mouse", "mice")
                .concept("ncbitaxon:10116", "Rattus norvegicus", "rat", "rats")
                .concept("ncbitaxon:4932", "Saccharomyces cerevisiae", "yeast", "budding yeast", "S. cerevisiae")
                // named in studies of human genes as patients' infection, expression host and habit
                .concept("ncbitaxon:11676", "Human immunodeficiency virus 1", "HIV-1", "HIV")
                .concept("ncbitaxon:562", "Escherichia coli", "E. coli")
                .concept("ncbitaxon:4097", "Nicotiana tabacum", "tobacco")
                // LINNAEUS's acronym of a grass, which prose defines as something else
                .concept("ncbitaxon:157914", "Eragrostis curvula", "BER")
                // LINNAEUS names the subspecies by the common name of the species
                .concept("ncbitaxon:381124", "Zea mays subsp. mays", "maize")
                .taxon(4577, "Zea mays", "corn")
                .taxon(9606, "Homo sapiens", "human")
                .taxon(11084, "Tick-borne encephalitis virus", "TBEV")
                .taxon(381124, "Zea mays subsp. mays");
    }
}
