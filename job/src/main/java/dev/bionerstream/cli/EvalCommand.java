package dev.bionerstream.cli;

import dev.bionerstream.engine.Entity;
import dev.bionerstream.engine.Extraction;
import dev.bionerstream.engine.Segmentation;
import dev.bionerstream.eval.IobCorpus;
import dev.bionerstream.eval.LinkingAccuracy;
import dev.bionerstream.eval.Scores;
import dev.bionerstream.eval.Span;
import dev.bionerstream.formats.Annotated;
import dev.bionerstream.linking.EntityLinker;
import dev.bionerstream.serving.LocalModel;
import dev.bionerstream.text.DocumentText;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Entity-level exact-match precision, recall and F1 of the engine on an IOB file. */
@Command(
        name = "eval",
        mixinStandardHelpOptions = true,
        modelTransformer = LinkArgs.WithModelFlags.class,
        header = "Scores of a model on an IOB corpus, or of the linker on a PubTator corpus",
        description = {
            "One sentence per engine text; the IOB file has one token per line and sentences separated by blank lines; --types maps the corpus's tags to the model's entity types.",
            "",
            "--linking --pubtator FILE (plain or .gz) measures the linker: accuracy@1 on the gold mentions (a composite "
                    + "mention, several ids for a coordinated text, is right only with all its ids; alternatives, several ids "
                    + "for one name, with any of them; mentions with id -1 are skipped and counted), then, end to end "
                    + "(the model's mentions of title and abstract linked as the job links them), concept-level "
                    + "precision, recall and F1 of each document's id set and mention-level scores by the HunFlair2 "
                    + "benchmark's rule (--gold-mentions-only skips this part and the model)."
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  ./bioner eval --iob corpora/BC5CDR-IOB/test.tsv --types Chemical=chemical,Disease=disease",
            "  ./bioner eval --bundle bundles/pharmaconer-es --iob corpora/PharmaCoNER-IOB/test.tsv \\",
            "      --types NORMALIZABLES=normalizable,NOTNORMALIZABLES=non-normalizable,PROTEINAS=protein",
            "  ./bioner eval --linking --pubtator corpora/linking/BC5CDR-PubTator/CDR_TestSet.PubTator.txt.gz \\",
            "      --types Chemical=chemical,Disease=disease"
        })
final class EvalCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--iob", description = "IOB file: token<TAB>tag lines, blank line between sentences")
    Path iob;

    @Option(names = "--types", required = true, description = "TAG=type,... e.g. Chemical=chemical,Disease=disease")
    String types;

    @Option(names = "--linking", description = "measure the linker on --pubtator instead of the model on --iob")
    boolean linking;

    @Option(names = "--pubtator", description = "PubTator file with concept ids (plain or .gz), for --linking")
    Path pubtator;

    @Option(names = "--gold-mentions-only", description = "with --linking: accuracy@1 only, without the model")
    boolean goldMentionsOnly;

    @Option(
            names = "--misses",
            description = "with --linking: write the gold mentions linked wrongly or NIL to this TSV")
    Path misses;

    @Override
    public Integer call() throws IOException {
        if (linking) {
            return linking();
        }
        if (iob == null || pubtator != null) {
            throw new IllegalArgumentException("give --iob FILE for the model's scores, or --linking --pubtator FILE");
        }
        Map<String, String> tags = IobCorpus.parseTypes(types);
        IobCorpus corpus = IobCorpus.read(iob, tags);
        try (LocalModel m = new EngineArgs(spec).open(List.copyOf(new LinkedHashSet<>(tags.values())))) {
            long t0 = System.nanoTime();
            Extraction x = m.extraction(corpus.sentences(), Segmentation.ONE_SENTENCE);
            double seconds = (System.nanoTime() - t0) / 1e9;
            Scores scores = evaluate(x.entities(), corpus.gold());
            System.out.printf(
                    "%s on %s (%d sentences, %.1f s, %.1f sentences/s; %d model passes, %d skipped by the presence gate)%n",
                    m.engine.manifest().id(),
                    iob,
                    corpus.sentences().size(),
                    seconds,
                    corpus.sentences().size() / seconds,
                    x.windows().size(),
                    x.skippedPasses());
            System.out.print(scores.table());
        }
        return 0;
    }

    private int linking() throws IOException {
        if (pubtator == null || iob != null) {
            throw new IllegalArgumentException("--linking measures the linker on --pubtator FILE (not --iob)");
        }
        Map<String, String> typeMap = IobCorpus.parseTypes(types);
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
        try (LocalModel m = new EngineArgs(spec).open(List.copyOf(new LinkedHashSet<>(typeMap.values())))) {
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

    /** Exact-match scores of an engine's predictions, sentence by sentence. */
    static Scores evaluate(List<List<Entity>> predicted, List<List<Span>> gold) {
        Scores scores = new Scores();
        for (int i = 0; i < gold.size(); i++) {
            List<Span> p = predicted.get(i).stream()
                    .map(x -> new Span(x.type(), x.start(), x.end()))
                    .toList();
            scores.add(p, gold.get(i));
        }
        return scores;
    }
}
