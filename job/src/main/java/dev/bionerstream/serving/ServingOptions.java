package dev.bionerstream.serving;

import dev.bionerstream.engine.GeneSpans;
import dev.bionerstream.inference.GraphOptimization;
import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * How the model is loaded, run and batched: one vocabulary for the streaming job
 * ({@code --model.device cuda:0}), the demo and the command line ({@code --device cuda:0} is the
 * same option), read once into a {@link ServingConfig}.
 */
public final class ServingOptions {
    private ServingOptions() {}

    public static final ConfigOption<String> BUNDLE = ConfigOptions.key("model.bundle")
            .stringType()
            .noDefaultValue()
            .withDescription("Model bundle directory, or " + BundleChoice.BUNDLE_IN_JAR
                    + " for the float16 bundle in the jar. Unset: the jar's bundle, except that ./bioner on a CPU "
                    + "serves the repository's int8 twin (bundles/default-int8).");
    public static final ConfigOption<String> DEVICE = ConfigOptions.key("model.device")
            .stringType()
            .defaultValue("cpu")
            .withDescription("cpu or cuda:N; falls back to cpu with a warning when CUDA cannot start.");
    public static final ConfigOption<Integer> THREADS = ConfigOptions.key("model.threads")
            .intType()
            .defaultValue(0)
            .withDescription("ONNX Runtime intra-op threads per JVM; 0 = all cores of the machine the model runs on.");
    public static final ConfigOption<Integer> RUNNERS = ConfigOptions.key("model.runners")
            .intType()
            .defaultValue(0)
            .withDescription(
                    "Model batches run side by side per JVM, each on its own thread with model.threads ONNX Runtime "
                            + "threads; 0 = on a CPU left at model.threads 0, one runner per core of the machine the "
                            + "model runs on, each with one thread (a core taken by the job's other threads then stalls "
                            + "one batch, not all: docs/throughput.md), otherwise 1.");
    public static final ConfigOption<GraphOptimization> OPTIMIZATION = ConfigOptions.key("model.optimization")
            .enumType(GraphOptimization.class)
            .defaultValue(GraphOptimization.ALL)
            .withDescription("ONNX Runtime graph optimisation: none, basic, extended or all.");
    public static final ConfigOption<String> ENTITY_TYPES = ConfigOptions.key("model.entity-types")
            .stringType()
            .noDefaultValue()
            .withDescription(
                    "Entity types to extract, comma-separated (e.g. chemical,disease); all of the bundle's when unset. "
                            + "A type left out costs no model pass.");
    public static final ConfigOption<String> GATE = ConfigOptions.key("model.gate")
            .stringType()
            .defaultValue("bundle")
            .withDescription(
                    "Presence gate (one query-free pass per sentence, then only the types it may hold): bundle (on if "
                            + "the bundle's measured gate is enabled), on, off, or a threshold between 0 and 1.");
    public static final ConfigOption<String> CORPUS = ConfigOptions.key("model.corpus")
            .stringType()
            .noDefaultValue()
            .withDescription(
                    "For a bundle trained with corpus tags: whose annotation conventions a type follows, TYPE=CORPUS pairs, "
                            + "comma-separated (e.g. disease=NCBI-disease); the bundle's default per type when unset.");
    public static final ConfigOption<GeneSpans> GENE_SPANS = ConfigOptions.key("model.gene-spans")
            .enumType(GeneSpans.class)
            .defaultValue(GeneSpans.PUBTATOR)
            .withDescription(
                    "How gene spans are written: pubtator (the gene alone, as PubTator and the NCBI corpora write it: "
                            + "no trailing \"gene\", \"promoter\", \"allele\" or \"mRNA\"; variants and residues "
                            + "such as R114H or Lys198Asn are no genes) or as-decoded (as the model's training corpus, "
                            + "BC2GM, writes them).");
    public static final ConfigOption<Integer> BATCH_MAX_SIZE = ConfigOptions.key("batch.max-size")
            .intType()
            .defaultValue(32)
            .withDescription("A model batch closes at this many sequences (Triton max_batch_size).");
    public static final ConfigOption<Duration> BATCH_MAX_WAIT = ConfigOptions.key("batch.max-wait")
            .durationType()
            .defaultValue(Duration.ofMillis(20))
            .withDescription(
                    "...or when its oldest sequence has waited this long (Triton max_queue_delay, Ray Serve batch_wait_timeout_s).");
    public static final ConfigOption<Integer> MAX_WINDOWS_PER_DOCUMENT = ConfigOptions.key(
                    "batch.max-windows-per-document")
            .intType()
            .defaultValue(4000)
            .withDescription(
                    "A document needing more (sentence, type) model passes than this goes to the dead-letter topic "
                            + "instead of occupying the model (a PubMed abstract needs about 40 with four types).");

    public static final ConfigOption<String> LANGUAGE_BUNDLES = ConfigOptions.key("model.language-bundles")
            .stringType()
            .noDefaultValue()
            .withDescription(
                    "More bundles, picked by the record's language: LANG=DIR pairs, comma-separated, e.g. spa=/models/pharmaconer "
                            + "(ISO 639 codes: es, spa and PubMed's codes all work). Records in other languages, or none, "
                            + "go to model.bundle. Each bundle gets its own session and batcher.");

    /** Every option above, for validating the keys a user gives. */
    public static final List<ConfigOption<?>> ALL = List.of(
            BUNDLE,
            DEVICE,
            THREADS,
            RUNNERS,
            OPTIMIZATION,
            ENTITY_TYPES,
            GATE,
            CORPUS,
            GENE_SPANS,
            BATCH_MAX_SIZE,
            BATCH_MAX_WAIT,
            MAX_WINDOWS_PER_DOCUMENT,
            LANGUAGE_BUNDLES);
}
