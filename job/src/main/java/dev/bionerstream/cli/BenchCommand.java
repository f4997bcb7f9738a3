package dev.bionerstream.cli;

import dev.bionerstream.bench.BenchTexts;
import dev.bionerstream.bench.EngineBench;
import dev.bionerstream.bench.StreamBench;
import dev.bionerstream.serving.LocalModel;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The command line of the benchmarks in {@code bench}: which texts, which model, which bench. */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        defaultValueProvider = ServingDefaults.class,
        header = "Throughput of the model, the engine or the job (--stream)",
        description = {
            "Sequences/s of the bare ONNX Runtime session on pre-tokenized batches and of the whole engine on the same batches, their ratio and padding efficiency (default input: the sample abstracts, title and abstract as one text). With --stream, the streaming job instead (embedded Kafka in and out, local cluster, exactly-once with 2 s checkpoints, measured on a second pass after an unmeasured first that warms the JVM) against the bare session on the same windows. For a bundle with syntax, also the syntax annotator's sentences/s."
        },
        footerHeading = "%nExamples:%n",
        footer = {"  ./bioner bench --limit 200 --rounds 3", "  ./bioner bench --stream --limit 200"})
final class BenchCommand implements Callable<Integer> {
    @Mixin
    EngineArgs engine;

    static final class Input {
        @Option(names = "--texts", description = "file with one text per line (default: the sample abstracts)")
        Path texts;

        @Option(names = "--iob", description = "IOB file; consecutive sentences are grouped into texts")
        Path iob;
    }

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Input input = new Input();

    @Option(
            names = "--sentences-per-text",
            defaultValue = "10",
            description = "with --iob: sentences per text. Default: ${DEFAULT-VALUE}")
    int sentencesPerText;

    @Option(names = "--limit", defaultValue = "500", description = "texts to use. Default: ${DEFAULT-VALUE}")
    int limit;

    @Option(
            names = "--stream",
            description =
                    "measure the streaming job instead: embedded Kafka in and out, a local Flink cluster, "
                            + "checkpoints every 2 s, measured on a second pass over the texts (the first warms the JVM); compared with the bare session on the same windows in the same run")
    boolean stream;

    @Option(
            names = "--rounds",
            defaultValue = "3",
            description = "timed rounds of each; the best is reported. Default: ${DEFAULT-VALUE}")
    int rounds;

    @Override
    public Integer call() throws Exception {
        List<String> texts = input.texts != null
                ? BenchTexts.lines(input.texts, limit)
                : input.iob != null ? BenchTexts.iob(input.iob, sentencesPerText, limit) : BenchTexts.samples(limit);
        try (LocalModel m = engine.open()) {
            if (stream) {
                new StreamBench(m, engine.toConfiguration(), LocalCluster.configuration(0), texts).run();
            } else {
                new EngineBench(m, texts, rounds).run(source());
            }
        }
        return 0;
    }

    private Object source() {
        return input.texts != null ? input.texts : input.iob != null ? input.iob : "the sample abstracts";
    }
}
