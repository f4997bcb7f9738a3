package dev.bionerstream.cli;

import dev.bionerstream.engine.Entity;
import dev.bionerstream.engine.Extraction;
import dev.bionerstream.engine.Segmentation;
import dev.bionerstream.eval.IobCorpus;
import dev.bionerstream.eval.Scores;
import dev.bionerstream.eval.Span;
import dev.bionerstream.options.CommandLineFlags;
import dev.bionerstream.options.CommandLineFlags.Flag;
import dev.bionerstream.serving.LocalModel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code eval ner}: entity-level exact-match precision, recall and F1 of the model on an IOB file. */
@Command(
        name = "ner",
        mixinStandardHelpOptions = true,
        modelTransformer = CommandLineFlags.class,
        header = "Precision, recall and F1 of the model on an IOB corpus",
        description = {
            "Entity-level exact match, per type and overall. One sentence per engine text; the IOB file has one token "
                    + "per line and sentences separated by blank lines; --types maps the corpus's tags to the model's "
                    + "entity types, and the model extracts only those. A syntax bundle is scored the same way, its "
                    + "syntax computed as the job computes it."
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  ./bioner eval ner --iob corpora/BC5CDR-IOB/test.tsv --types Chemical=chemical,Disease=disease",
            "  ./bioner eval ner --bundle bundles/pharmaconer-es --iob corpora/PharmaCoNER-IOB/test.tsv \\",
            "      --types NORMALIZABLES=normalizable,NOTNORMALIZABLES=non-normalizable,PROTEINAS=protein"
        })
final class NerEvalCommand implements CommandLineFlags.Settings, Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(
            names = "--iob",
            required = true,
            paramLabel = "FILE",
            description = "IOB file: token<TAB>tag lines, blank line between sentences")
    Path iob;

    @Mixin
    CorpusTypes types;

    @Override
    public List<Flag> settings() {
        return EngineArgs.FLAGS;
    }

    @Override
    public Integer call() throws IOException {
        IobCorpus corpus = IobCorpus.read(iob, types.map());
        try (LocalModel m = new EngineArgs(spec).open(types.ours())) {
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
