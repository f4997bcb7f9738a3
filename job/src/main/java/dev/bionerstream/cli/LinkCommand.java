package dev.bionerstream.cli;

import dev.bionerstream.eval.IobCorpus;
import dev.bionerstream.formats.Annotated;
import dev.bionerstream.formats.PubTator;
import dev.bionerstream.linking.EntityLinker;
import dev.bionerstream.linking.Link;
import dev.bionerstream.linking.Mention;
import dev.bionerstream.options.CommandLineFlags;
import dev.bionerstream.options.CommandLineFlags.Flag;
import dev.bionerstream.text.DocumentText;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Link-only mode: the mentions of PubTator documents, found by any tool, get concept ids; every
 * line is written back as it came but for the concept column of the mentions linked.
 */
@Command(
        name = "link",
        mixinStandardHelpOptions = true,
        modelTransformer = CommandLineFlags.class,
        header = "Concept ids for the mentions of PubTator documents",
        description = {
            "Reads PubTator documents (ID|t|title, ID|a|abstract, then ID<TAB>start<TAB>end<TAB>mention<TAB>type[<TAB>id] "
                    + "lines) and writes them back with the id column of each mention of a linked type set to its "
                    + "concept's CURIE (mesh:D009270, ncbigene:672, ncbitaxon:9606; composite mentions id|id) or - for "
                    + "NIL. Offsets, order, other types and relation lines are left as they are. --types maps the "
                    + "file's type names to ours; unset, the file's names are used as they are, whatever their case (Chemical, Gene)."
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  ./bioner link --input mentions.pubtator --out linked.pubtator",
            "  ./bioner link --input tagged.pubtator      # types Chemical, Disease, Gene, Species as they are",
            "  ./bioner link --input BioRED.pubtator --out linked.pubtator \\",
            "      --types GeneOrGeneProduct=gene,ChemicalEntity=chemical,OrganismTaxon=species"
        })
final class LinkCommand implements CommandLineFlags.Settings, Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public List<Flag> settings() {
        return LinkArgs.FLAGS;
    }

    @Option(names = "--input", description = "PubTator file; standard input when unset")
    Path input;

    @Option(names = "--out", description = "PubTator file to write; standard output when unset")
    Path out;

    @Option(names = "--types", description = "FILE_TYPE=type,... e.g. Chemical=chemical,Disease=disease")
    String types;

    @Override
    public Integer call() throws IOException {
        List<String> lines;
        try (BufferedReader in = input == null
                ? new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
                : Files.newBufferedReader(input, StandardCharsets.UTF_8)) {
            lines = in.lines().toList();
        }
        String source = input == null ? "standard input" : input.toString();
        List<Annotated> documents;
        try {
            documents = PubTator.read(
                    new BufferedReader(new StringReader(String.join("\n", lines))), PubTator.MentionText.MUST_MATCH);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source + ", " + e.getMessage(), e);
        }
        Map<String, String> typeMap = types == null ? null : IobCorpus.parseTypes(types);
        LinkArgs args = new LinkArgs(spec);
        Set<String> vocabularies = args.settings().types();
        requireALinkedType(documents, typeMap, vocabularies, source);
        EntityLinker linker = args.open();
        if (out == null) {
            write(lines, documents, linker, typeMap, new PrintStream(System.out, false, StandardCharsets.UTF_8));
        } else {
            try (PrintStream to = new PrintStream(Files.newOutputStream(out), false, StandardCharsets.UTF_8)) {
                write(lines, documents, linker, typeMap, to);
            }
        }
        return 0;
    }

    /**
     * A file none of whose mentions would be linked is a mistake (BC5CDR's "Chemical" is not our
     * "chemical"), not a file to give back unchanged.
     */
    private static void requireALinkedType(
            List<Annotated> documents, Map<String, String> typeMap, Set<String> vocabularies, String source) {
        Set<String> seen = new TreeSet<>();
        documents.forEach(d -> d.annotations().forEach(a -> seen.add(a.type())));
        boolean any = seen.stream().anyMatch(t -> linkedType(t, typeMap, vocabularies) != null);
        if (!seen.isEmpty() && !any) {
            throw new IllegalArgumentException(source + ": none of its mention types " + seen
                    + " is linked; map them to " + vocabularies
                    + " with --types, e.g. --types ChemicalEntity=chemical,DiseaseOrPhenotypicFeature=disease");
        }
    }

    /**
     * Our type of a file's mention type, if it has a vocabulary; else null. Without {@code --types},
     * a file's type is ours whatever its case (PubTator writes "Chemical", "Gene", "Species").
     */
    private static String linkedType(String fileType, Map<String, String> typeMap, Set<String> vocabularies) {
        String type = typeMap == null ? fileType.toLowerCase(Locale.ROOT) : typeMap.get(fileType);
        return type != null && vocabularies.contains(type) ? type : null;
    }

    /** Every line as it came, the concept column of each linked mention set. */
    private static void write(
            List<String> lines,
            List<Annotated> documents,
            EntityLinker linker,
            Map<String, String> typeMap,
            PrintStream out) {
        int document = -1;
        List<String> ids = List.of();
        int mention = 0;
        boolean inDocument = false;
        for (String line : lines) {
            if (line.isBlank()) {
                inDocument = false;
                out.println(line);
                continue;
            }
            if (!inDocument) {
                inDocument = true;
                ids = ids(linker, documents.get(++document), typeMap);
                mention = 0;
            }
            String id = PubTator.kind(line) == PubTator.LineKind.MENTION ? ids.get(mention++) : null;
            out.println(id == null ? line : PubTator.withConcept(line, id));
        }
        out.flush();
    }

    /** The concept column of each mention of {@code d}: a CURIE, "-" for NIL, null to leave it as it is. */
    private static List<String> ids(EntityLinker linker, Annotated d, Map<String, String> typeMap) {
        DocumentText doc = DocumentText.of(d.title(), d.abstractText());
        List<Mention> mentions = new ArrayList<>();
        List<Integer> linked = new ArrayList<>();
        for (int i = 0; i < d.annotations().size(); i++) {
            Annotated.Annotation a = d.annotations().get(i);
            String type = linkedType(a.type(), typeMap, linker.vocabularies().keySet());
            if (type != null) {
                mentions.add(new Mention(type, a.text(), doc.charOffset(a.start())));
                linked.add(i);
            }
        }
        List<Link> links = linker.link(doc, mentions);
        List<String> ids = new ArrayList<>(Collections.nCopies(d.annotations().size(), (String) null));
        for (int i = 0; i < links.size(); i++) {
            Link l = links.get(i);
            ids.set(linked.get(i), l.isNil() ? "-" : l.id());
        }
        return ids;
    }
}
