package dev.bionerstream.cli;

import dev.bionerstream.bench.BenchTexts;
import dev.bionerstream.bench.EngineBench;
import dev.bionerstream.bench.OfferedRate;
import dev.bionerstream.bench.StreamBench;
import dev.bionerstream.formats.Annotated;
import dev.bionerstream.kafka.KafkaOptions;
import dev.bionerstream.options.CommandLineFlags;
import dev.bionerstream.options.CommandLineFlags.Flag;
import dev.bionerstream.serving.LocalModel;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.Configuration;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The command line of the benchmarks in {@code bench}: which texts, which model, which bench. */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        modelTransformer = CommandLineFlags.class,
        header = "Throughput of the model, the engine or the job (--stream); the job's latency (--rate)",
        description = {
            "Sequences/s of the bare ONNX Runtime session on pre-tokenized batches and of the whole engine on the same batches, their ratio and padding efficiency (default input: the sample abstracts, title and abstract as one text). With --stream, the streaming job instead (embedded Kafka in and out, local cluster, exactly-once with 2 s checkpoints, measured on a second pass after an unmeasured first that warms the JVM) against the bare session on the same windows. With --rate, the running job then gets a steady stream at that rate and the bench prints latency percentiles (p50, p95, p99, max) from each record's timestamp on the input topic until its document is visible to a read_committed consumer, to a consumer that does not wait for transactions and, with --index, to a search of the OpenSearch index. For a bundle with syntax, also the syntax annotator's sentences/s."
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  ./bioner bench --limit 200 --rounds 3",
            "  ./bioner bench --linking --limit 1000 --rounds 1 \\",
            "      --pubtator corpora/linking/BC5CDR-PubTator/CDR_TrainingSet.PubTator.txt.gz \\",
            "      --pubtator corpora/linking/BC5CDR-PubTator/CDR_DevelopmentSet.PubTator.txt.gz",
            "  ./bioner bench --stream --limit 200",
            "  ./bioner bench --stream --limit 200 --compare-linking --rate 50%%",
            "  ./bioner bench --stream --limit 200 --rate 50%%,90%% --index",
            "  ./bioner bench --stream --limit 200 --rate 90%% \\",
            "      --delivery-guarantee at-least-once --checkpoint-interval 10s"
        })
final class BenchCommand implements CommandLineFlags.Settings, Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** The model's and the linker's flags; the streaming job's checkpoints and delivery under short names. */
    @Override
    public List<Flag> settings() {
        List<Flag> flags = new ArrayList<>(LinkArgs.WITH_MODEL_FLAGS);
        flags.add(Flag.of(KafkaOptions.CHECKPOINT_INTERVAL, "--checkpoint-interval")
                .withDefault("2 s")
                .withNote("With --stream."));
        flags.add(
                Flag.of(KafkaOptions.DELIVERY_GUARANTEE, "--delivery-guarantee").withNote("With --stream."));
        return flags;
    }

    static final class Input {
        @Option(names = "--texts", description = "file with one text per line (default: the sample abstracts)")
        Path texts;

        @Option(names = "--iob", description = "IOB file; consecutive sentences are grouped into texts")
        Path iob;

        @Option(
                names = "--pubtator",
                description =
                        "PubTator file(s) (plain or .gz), repeatable; each document's title and abstract is a text")
        List<Path> pubtator;
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
                            + "checkpoints every --checkpoint-interval, measured on a second pass over the texts (the first warms the JVM); compared with the bare session on the same windows in the same run")
    boolean stream;

    @Option(
            names = "--rate",
            arity = "0..1",
            fallbackValue = "50%",
            description =
                    "with --stream: then offer the running job a steady rate and print latency percentiles; texts/s "
                            + "(4.5) or a share of the capacity the measured pass showed (90%%); several, comma-separated, run one after the other (50%%,90%%). Without a value: ${FALLBACK-VALUE}")
    String rate;

    @Option(
            names = "--latency-seconds",
            defaultValue = "60",
            description = "with --rate: how long each steady stream runs. Default: ${DEFAULT-VALUE}")
    int latencySeconds;

    @Option(
            names = "--index",
            description =
                    "with --rate: the job's OpenSearch index sink too, on an embedded node, and the latency until a "
                            + "search finds each document (the index refreshes every second)")
    boolean index;

    @Option(
            names = "--compare-linking",
            description = "with --stream: then stream the same texts (and --rate's latency runs) through a job with "
                    + "link.enabled false, and print the throughput with linking over without")
    boolean compareLinking;

    @Option(
            names = "--linking",
            description = "without --stream: also link each text's entities and print the linker's time beside the "
                    + "engine's")
    boolean linking;

    @Option(
            names = "--rounds",
            defaultValue = "3",
            description = "timed rounds of each; the best is reported. Default: ${DEFAULT-VALUE}")
    int rounds;

    @Override
    public Integer call() throws Exception {
        List<String> texts = input.texts != null
                ? BenchTexts.lines(input.texts, limit)
                : input.iob != null
                        ? BenchTexts.iob(input.iob, sentencesPerText, limit)
                        : input.pubtator != null ? pubtatorTexts() : BenchTexts.samples(limit);
        if (stream && linking) {
            throw new ParameterException(
                    spec.commandLine(), "--linking measures the linker beside the engine: drop --stream");
        }
        if (!stream && compareLinking) {
            throw new ParameterException(
                    spec.commandLine(), "--compare-linking measures the streaming job: add --stream");
        }
        if (!stream && rate != null) {
            throw new ParameterException(spec.commandLine(), "--rate measures the streaming job: add --stream");
        }
        if (rate == null && index) {
            throw new ParameterException(spec.commandLine(), "--index measures the index's latency: add --rate");
        }
        try (LocalModel m = new EngineArgs(spec).open()) {
            if (stream) {
                Configuration job = CommandLineFlags.given(spec);
                StreamBench.LatencyPlan latency = rate == null
                        ? null
                        : new StreamBench.LatencyPlan(offeredRates(), Duration.ofSeconds(latencySeconds), index);
                new StreamBench(m, job, LocalCluster.configuration(0), texts, latency, compareLinking).run();
            } else {
                new EngineBench(m, texts, rounds, linking ? new LinkArgs(spec).open() : null).run(source());
            }
        }
        return 0;
    }

    private List<OfferedRate> offeredRates() {
        try {
            return Arrays.stream(rate.split(",")).map(OfferedRate::parse).toList();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e, null, rate);
        }
    }

    private List<String> pubtatorTexts() throws IOException {
        List<String> texts = new ArrayList<>();
        for (Path file : input.pubtator) {
            for (Annotated d : PubTatorFiles.read(file)) {
                if (texts.size() < limit) {
                    texts.add(d.text());
                }
            }
        }
        return texts;
    }

    private Object source() {
        return input.texts != null
                ? input.texts
                : input.iob != null ? input.iob : input.pubtator != null ? input.pubtator : "the sample abstracts";
    }
}
