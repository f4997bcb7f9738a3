package dev.bionerstream.cli;

import dev.bionerstream.engine.Entity;
import dev.bionerstream.engine.Extraction;
import dev.bionerstream.engine.Segmentation;
import dev.bionerstream.eval.IobCorpus;
import dev.bionerstream.eval.Scores;
import dev.bionerstream.eval.Span;
import dev.bionerstream.serving.LocalModel;
import java.nio.file.Path;
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
        modelTransformer = EngineArgs.Flags.class,
        header = "Precision, recall and F1 of a model on an IOB corpus",
        description = {
            "One sentence per engine text; the IOB file has one token per line and sentences separated by blank lines; --types maps the corpus's tags to the model's entity types."
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  ./bioner eval --iob corpora/BC5CDR-IOB/test.tsv --types Chemical=chemical,Disease=disease",
            "  ./bioner eval --bundle bundles/pharmaconer-es --iob corpora/PharmaCoNER-IOB/test.tsv \\",
            "      --types NORMALIZABLES=normalizable,NOTNORMALIZABLES=non-normalizable,PROTEINAS=protein"
        })
final class EvalCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(
            names = "--iob",
            required = true,
            description = "IOB file: token<TAB>tag lines, blank line between sentences")
    Path iob;

    @Option(names = "--types", required = true, description = "TAG=type,... e.g. Chemical=chemical,Disease=disease")
    String types;

    @Override
    public Integer call() {
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
