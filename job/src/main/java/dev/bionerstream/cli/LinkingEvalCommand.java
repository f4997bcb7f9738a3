package dev.bionerstream.cli;

import dev.bionerstream.engine.Entity;
import dev.bionerstream.engine.Segmentation;
import dev.bionerstream.eval.LinkingAccuracy;
import dev.bionerstream.formats.Annotated;
import dev.bionerstream.linking.EntityLinker;
import dev.bionerstream.options.CommandLineFlags;
import dev.bionerstream.options.CommandLineFlags.Flag;
import dev.bionerstream.serving.LocalModel;
import dev.bionerstream.text.DocumentText;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code eval linking}: the linker on a PubTator corpus with concept ids, on the gold mentions and
 * end to end ({@link LinkingEval}).
 */
@Command(
        name = "linking",
        mixinStandardHelpOptions = true,
        modelTransformer = CommandLineFlags.class,
        header = "Accuracy of the linker on a PubTator corpus with concept ids, alone and after the model",
        description = {
            "Accuracy@1 on the gold mentions (a composite mention, several ids for a coordinated text, is right only "
                    + "with all its ids; alternatives, several ids for one name, with any of them; mentions with id -1 "
                    + "are skipped and counted), then, end to end (the model's mentions of title and abstract linked "
                    + "as the job links them), concept-level precision, recall and F1 of each document's id set and "
                    + "mention-level scores by the HunFlair2 benchmark's rule (--gold-mentions-only skips this part "
                    + "and the model). --types maps the corpus's types to the linker's."
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  ./bioner eval linking --pubtator corpora/linking/BC5CDR-PubTator/CDR_TestSet.PubTator.txt.gz \\",
            "      --types Chemical=chemical,Disease=disease",
            "  ./bioner eval linking --gold-mentions-only --misses misses.tsv \\",
            "      --pubtator corpora/linking/NCBI-disease/NCBItestset_corpus.txt.gz \\",
            "      --types SpecificDisease=disease,DiseaseClass=disease,CompositeMention=disease,Modifier=disease"
        })
final class LinkingEvalCommand implements CommandLineFlags.Settings, Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(
            names = "--pubtator",
            required = true,
            paramLabel = "FILE",
            description = "PubTator file with concept ids (plain or .gz)")
    Path pubtator;

    @Mixin
    CorpusTypes types;

    @Option(names = "--gold-mentions-only", description = "accuracy@1 only, without the model")
    boolean goldMentionsOnly;

    @Option(
            names = "--misses",
            paramLabel = "FILE.tsv",
            description = "write the gold mentions linked wrongly or NIL to this TSV")
    Path misses;

    /** The linker's flags, and the model's for the end-to-end part. */
    @Override
    public List<Flag> settings() {
        return LinkArgs.WITH_MODEL_FLAGS;
    }

    @Override
    public Integer call() throws IOException {
        Map<String, String> typeMap = types.map();
        List<Annotated> documents = PubTatorFiles.read(pubtator);
        EntityLinker linker = new LinkArgs(spec).open();
        long t0 = System.nanoTime();
        LinkingAccuracy accuracy;
        LinkingAccuracy equivalent = new LinkingAccuracy();
        try (PrintWriter missed = new PrintWriter(
                misses == null ? Writer.nullWriter() : Files.newBufferedWriter(misses, StandardCharsets.UTF_8))) {
            missed.println("document\ttype\tmention\tgold\tlinked\tname\tscore");
            accuracy = LinkingEval.onGoldMentions(documents, typeMap, linker, equivalent, missed::println);
        }
        System.out.printf(
                "linking on %s: %d documents, gold mentions linked in %.1f s; vocabularies %s%n",
                pubtator,
                documents.size(),
                (System.nanoTime() - t0) / 1e9,
                linker.vocabularies().values().stream().map(v -> v.lineage()).toList());
        long differing = documents.stream()
                .flatMap(d -> d.annotations().stream()
                        .filter(a ->
                                typeMap.containsKey(a.type()) && !d.textAt(a).equals(a.text())))
                .count();
        if (differing > 0) {
            System.out.printf(
                    "%d gold mentions are not the document's text at their offsets (the corpus's own errors): "
                            + "linked by their own text%n",
                    differing);
        }
        System.out.println(
                "accuracy@1 on the gold mentions (the link the stream emits, else the best candidate whatever its score; under-min: NIL in the stream):");
        System.out.print(accuracy.table());
        System.out.println(
                "the same, an id the vocabulary declares the same concept as a gold id (MEDIC's alternative MeSH "
                        + "and OMIM ids) counted as that id:");
        System.out.print(equivalent.table());
        if (goldMentionsOnly) {
            return 0;
        }
        try (LocalModel m = new EngineArgs(spec).open(types.ours())) {
            long t1 = System.nanoTime();
            List<DocumentText> texts = documents.stream()
                    .map(d -> DocumentText.of(d.title(), d.abstractText()))
                    .toList();
            List<List<Entity>> byField =
                    m.extract(texts.stream().flatMap(t -> t.fields().stream()).toList(), Segmentation.SENTENCES);
            List<List<LinkingEval.FieldEntity>> entities = new ArrayList<>();
            int next = 0;
            for (DocumentText t : texts) {
                List<LinkingEval.FieldEntity> found = new ArrayList<>();
                for (int f = 0; f < t.fields().size(); f++) {
                    for (Entity e : byField.get(next++)) {
                        found.add(new LinkingEval.FieldEntity(f, e));
                    }
                }
                entities.add(found);
            }
            LinkingEval.EndToEnd scores = LinkingEval.endToEnd(documents, typeMap, linker, entities);
            System.out.printf(
                    "%nend to end, %s's mentions (title and abstract read apart, as the job reads them) linked (%.1f s)%n",
                    m.engine.manifest().id(), (System.nanoTime() - t1) / 1e9);
            System.out.println("concept level, each document's set of ids:");
            System.out.print(scores.concepts().table());
            System.out.println(
                    "mention level, the HunFlair2 benchmark's rule (the gold span or one end one character off,"
                            + " and a gold id; a wrong id is a false positive and a false negative, NIL no positive):");
            System.out.print(scores.mentions().table());
        }
        return 0;
    }
}
