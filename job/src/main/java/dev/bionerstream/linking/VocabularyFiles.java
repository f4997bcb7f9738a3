package dev.bionerstream.linking;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;
import org.tukaani.xz.XZInputStream;

/**
 * Reads vocabularies into a {@link Vocabulary.Builder}: the shipped bundles (a directory, or
 * {@code classpath:vocabularies/TYPE} in the jar) and a user's TSV. Every error names the file and
 * the line.
 *
 * <p>A bundle holds {@code vocabulary.json} (name, version, entity type, sources), {@code
 * concepts.tsv.gz} ({@code id, name, synonyms, taxon, weight}, synonyms separated by {@code |}) and
 * {@code corpus-names.tsv.gz} ({@code id, name, source, mentions[, taxon]}: names as annotated training
 * corpora link them, extra synonyms; an id the concepts lack becomes a concept named by its first
 * mention, of the taxon the last column gives: a gene of a species outside the gene vocabulary)
 * and, where the manifest counts {@code alt_ids}, {@code alt-ids.tsv.gz} ({@code id, alt_id}: ids
 * the source declares the same concept, as MEDIC's alternative MeSH and OMIM ids) and, where it
 * counts {@code superseded}, {@code superseded.tsv.gz} ({@code id, current_id, why}: ids the newest
 * source replaced, which the bundle never gives) and, where it counts {@code orthologs}, {@code
 * orthologs.tsv.gz} ({@code id, ortholog_id}: a human gene and its mouse ortholog, HGNC's) and, where
 * it counts {@code taxonomy}, {@code taxonomy.tsv.xz} ({@code tax_id, name}: every named taxon's names,
 * its scientific name first, looked up exactly: {@link TaxonNames}).
 */
public final class VocabularyFiles {
    public static final String CLASSPATH = "classpath:";
    private static final ObjectMapper JSON = new ObjectMapper();

    private VocabularyFiles() {}

    /** The bundle of {@code type} in the jar. */
    public static String inJar(String type) {
        return CLASSPATH + "vocabularies/" + type;
    }

    /** Reads a bundle; returns its entity type. */
    public static String readBundle(String location, Vocabulary.Builder into) {
        JsonNode manifest;
        try (InputStream in = open(location, "vocabulary.json")) {
            manifest = JSON.readTree(in);
        } catch (IOException e) {
            throw new IllegalArgumentException(location + "/vocabulary.json: " + e.getMessage(), e);
        }
        for (String field : new String[] {"name", "version", "entity_type"}) {
            if (!manifest.path(field).isTextual()) {
                throw new IllegalArgumentException(location + "/vocabulary.json: no \"" + field + "\"");
            }
        }
        into.lineage(
                manifest.get("name").asText() + ":" + manifest.get("version").asText());
        String concepts = location + "/concepts.tsv.gz";
        read(concepts, open(location, "concepts.tsv.gz"), 5, f -> {
            Concept c = new Concept(
                    f[0], f[1], f[3].isEmpty() ? 0 : Integer.parseInt(f[3]), f[4].isEmpty() ? 0 : Long.parseLong(f[4]));
            into.concept(c);
            for (String synonym : f[2].split("\\|")) {
                into.name(c.id(), synonym, NameSource.SYNONYM);
            }
        });
        read(location + "/corpus-names.tsv.gz", open(location, "corpus-names.tsv.gz"), 4, f -> {
            if (!into.has(f[0])) {
                boolean hasTaxon = f.length > 4 && !f[4].isEmpty();
                into.concept(new Concept(f[0], f[1], hasTaxon ? Integer.parseInt(f[4]) : 0, 0));
            }
            into.corpusName(f[0], f[1], Integer.parseInt(f[3]));
        });
        if (manifest.has("alt_ids")) {
            read(location + "/alt-ids.tsv.gz", open(location, "alt-ids.tsv.gz"), 2, f -> into.sameAs(f[0], f[1]));
        }
        if (manifest.has("taxonomy")) {
            String file = location + "/taxonomy.tsv.xz";
            try (BufferedReader in = new BufferedReader(new InputStreamReader(
                    new XZInputStream(open(location, "taxonomy.tsv.xz")), StandardCharsets.UTF_8))) {
                into.taxonNames(TaxonNames.read(in));
            } catch (IOException e) {
                throw new UncheckedIOException(file + ": " + e.getMessage(), e);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
            }
        }
        if (manifest.has("orthologs")) {
            read(
                    location + "/orthologs.tsv.gz",
                    open(location, "orthologs.tsv.gz"),
                    2,
                    f -> into.orthologs(f[0], f[1]));
        }
        if (manifest.has("superseded")) {
            read(
                    location + "/superseded.tsv.gz",
                    open(location, "superseded.tsv.gz"),
                    2,
                    f -> into.superseded(f[0], f[1]));
        }
        return manifest.get("entity_type").asText();
    }

    /**
     * Reads a user's vocabulary: one concept per line, {@code id<TAB>name[<TAB>synonym|synonym...]},
     * the id a CURIE ({@code prefix:local}); blank lines and lines starting with {@code #} are skipped.
     */
    public static void readUser(Path file, Vocabulary.Builder into) {
        into.lineage("user:" + file.getFileName());
        Set<String> ids = new HashSet<>();
        InputStream in;
        try {
            in = Files.newInputStream(file);
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read the vocabulary: " + e, e);
        }
        read(file.toString(), in, 0, f -> {
            if (f.length < 2 || f.length > 3) {
                throw new IllegalArgumentException(
                        "expected id<TAB>name[<TAB>synonym|synonym...], got " + f.length + " tab-separated fields");
            }
            int colon = f[0].indexOf(':');
            if (colon <= 0 || colon == f[0].length() - 1 || f[0].contains(" ")) {
                throw new IllegalArgumentException(
                        "the id must be a CURIE such as mesh:D009270 or acme:drug-42, got \"" + f[0] + "\"");
            }
            if (f[1].isBlank()) {
                throw new IllegalArgumentException("concept " + f[0] + " has no name");
            }
            if (!ids.add(f[0])) {
                throw new IllegalArgumentException("concept " + f[0] + " is listed twice");
            }
            into.concept(new Concept(f[0], f[1].strip(), 0, 0));
            if (f.length == 3) {
                for (String synonym : f[2].split("\\|")) {
                    into.name(f[0], synonym, NameSource.SYNONYM);
                }
            }
        });
    }

    /**
     * Calls {@code row} for every line past a bundle file's header ({@code columns > 0}: a header of
     * at least that many fields, then as many fields per line as the header names; a later format may
     * add columns), or every non-comment line of a user's file.
     */
    private static void read(String name, InputStream raw, int columns, Consumer<String[]> row) {
        int lineNo = 0;
        int fields = columns;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                name.endsWith(".gz") ? new GZIPInputStream(raw, 1 << 16) : raw, StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                lineNo++;
                if (columns <= 0 && (line.isBlank() || line.startsWith("#"))) {
                    continue;
                }
                String[] f = line.split("\t", -1);
                if (columns > 0 && lineNo == 1) {
                    if (f.length < columns) {
                        throw new IllegalArgumentException(
                                "expected a header of at least " + columns + " tab-separated fields, got " + f.length);
                    }
                    fields = f.length;
                    continue;
                }
                if (columns > 0 && f.length != fields) {
                    throw new IllegalArgumentException("expected " + fields + " tab-separated fields, got " + f.length);
                }
                row.accept(f);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(name + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(name + ", line " + lineNo + ": " + e.getMessage(), e);
        }
    }

    private static InputStream open(String location, String file) {
        try {
            if (location.startsWith(CLASSPATH)) {
                String resource = location.substring(CLASSPATH.length()) + "/" + file;
                InputStream in = VocabularyFiles.class.getClassLoader().getResourceAsStream(resource);
                if (in == null) {
                    throw new FileNotFoundException("not on the classpath: " + resource);
                }
                return in;
            }
            return Files.newInputStream(Path.of(location, file));
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "vocabulary bundle " + location + ": cannot read " + file + " (" + e.getMessage() + ")", e);
        }
    }
}
