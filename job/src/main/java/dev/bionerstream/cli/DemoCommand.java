package dev.bionerstream.cli;

import dev.bionerstream.avro.DeadLetter;
import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.demo.LocalPipeline;
import dev.bionerstream.demo.SampleAbstracts;
import dev.bionerstream.ingest.IngestConfig;
import dev.bionerstream.ingest.IngestJob;
import dev.bionerstream.ingest.IngestOptions;
import dev.bionerstream.kafka.KafkaOptions;
import dev.bionerstream.options.CommandLineFlags;
import dev.bionerstream.options.CommandLineFlags.Flag;
import dev.bionerstream.pubmed.PubMedDirectory;
import dev.bionerstream.serving.BundleChoice;
import dev.bionerstream.serving.ModelRoutes;
import dev.bionerstream.serving.ServingOptions;
import dev.bionerstream.serving.SessionFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The whole pipeline on one machine with nothing installed: an embedded Kafka broker, an embedded
 * OpenSearch node with the search-and-view page (unless {@code --no-index}), the job on a local
 * Flink cluster with its dashboard, the sample abstracts produced, the output read back and
 * summarised.
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        modelTransformer = CommandLineFlags.class,
        header = "The whole pipeline on this machine, on sample abstracts",
        description = {
            "Starts an embedded Kafka broker and an embedded OpenSearch node on 127.0.0.1 with the job's index sink and the search-and-view page (--no-index: neither), runs the job on a local Flink cluster with its dashboard (--port), produces N English sample abstracts (and two bad records) and 5 Spanish clinical-case samples (--abstracts-es), and prints a summary: abstracts, sentences, entities; by model, the languages it reads, its documents and each of its entity types; examples, dead letters, throughput, and the page's address with the number of searchable documents.%n",
            "English records are read by the default bundle, Spanish ones by the repository's Spanish bundle bundles/pharmaconer-es (--model.language-bundles none: English only). --pubmed DIR runs the ingest job on a directory of PubMed XML files instead (samples/pubmed is a real sample).%n",
            "Nothing to install but Java and Maven: no Docker, no Kafka, no Flink."
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  ./bioner demo                          # keeps running for the page; Ctrl-C stops it",
            "  ./bioner demo --exit-when-done         # prints the summary and exits",
            "  ./bioner demo --no-index               # without OpenSearch and the page (small machines)",
            "  ./bioner demo --pubmed samples/pubmed  # real PubMed XML through the ingest job"
        })
final class DemoCommand implements CommandLineFlags.Settings, Callable<Integer> {
    static final List<String> BAD_RECORDS = List.of("{not json", "{\"id\": \"no-text\"}");
    /** Turns the Spanish bundle off: {@code --model.language-bundles none}. */
    static final String NO_LANGUAGE_BUNDLES = "none";
    /** The language of the Spanish samples, which go out only when a Spanish bundle serves them. */
    static final String SPANISH = "spa";

    @Spec
    CommandSpec spec;

    @Option(
            names = "--abstracts",
            defaultValue = "100",
            description = "sample abstracts to produce (max 480). Default: ${DEFAULT-VALUE}")
    int abstracts;

    @Option(
            names = "--pubmed",
            description = "a directory of PubMed XML files (.xml, .xml.gz), e.g. samples/pubmed: the ingest job "
                    + "reads them instead of the sample abstracts, and keeps watching the directory")
    Path pubmed;

    @Option(
            names = "--abstracts-es",
            defaultValue = "5",
            description = "Spanish clinical-case samples to produce when a Spanish bundle serves (max 20). "
                    + "Default: ${DEFAULT-VALUE}")
    int spanishAbstracts;

    @Option(names = "--port", defaultValue = "8081", description = "Flink dashboard port. Default: ${DEFAULT-VALUE}")
    int port;

    @Option(
            names = "--exit-when-done",
            description = "exit 0 once the sample is processed (else keep running for the dashboard and the page)")
    boolean exitWhenDone;

    @Option(
            names = "--no-index",
            description = "leave out the OpenSearch node, the index sink and the page (saves memory and start-up time)")
    boolean noIndex;

    @Mixin
    ViewerArgs viewer;

    /** The model options, the micro-batch wait, and the language bundles with the demo's own default. */
    @Override
    public List<Flag> settings() {
        List<Flag> flags = new ArrayList<>(EngineArgs.FLAGS);
        flags.add(Flag.of(ServingOptions.BATCH_MAX_WAIT));
        flags.add(Flag.of(ServingOptions.LANGUAGE_BUNDLES)
                .withNote("Here: " + SPANISH + "=" + BundleChoice.SPANISH
                        + " (the repository's Spanish PharmaCoNER bundle) unless " + NO_LANGUAGE_BUNDLES
                        + " (English only)."));
        return flags;
    }

    private JobClient ingest;
    private DemoIndex index;
    /** Counted down by Ctrl-C: the demo closes what it started, in order, and exits 130. */
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    /**
     * Whether a stop interrupts the demo's thread: while it starts or waits for the sample's output,
     * not while it only keeps running for the page (it sees the request within a second) nor while
     * it closes (an interrupt would cut the closing short).
     */
    private volatile boolean interruptible = true;

    @Override
    public Integer call() throws Exception {
        Thread demo = Thread.currentThread();
        long[] stopStarted = {0};
        int exit;
        try (StopSignals signals = StopSignals.install(() -> {
                    stopStarted[0] = System.nanoTime();
                    System.out.println("stopping the demo: the job, the Kafka broker, "
                            + (noIndex ? "" : "OpenSearch and the page, ")
                            + "Flink's local cluster and its temporary files (Ctrl-C again: at once)");
                    stopRequested.countDown();
                    if (interruptible) {
                        demo.interrupt();
                    }
                });
                // The local clusters' files, in a folder of the demo's own: the RPC system's jar and
                // the cluster's working directory were left in the temporary directory at each Ctrl-C.
                TemporaryFiles tmp = TemporaryFiles.create("bioner-demo-")) {
            try {
                exit = run(tmp);
            } catch (Exception e) {
                if (!stopping()) {
                    throw e;
                }
                exit = StopSignals.EXIT_CODE;
            } finally {
                interruptible = false;
                Thread.interrupted();
                LocalCluster.awaitClosed(tmp.dir, Duration.ofSeconds(30));
            }
        }
        if (stopping()) {
            System.out.printf("stopped (%.1f s)%n", (System.nanoTime() - stopStarted[0]) / 1e9);
            return StopSignals.EXIT_CODE;
        }
        return exit;
    }

    private boolean stopping() {
        return stopRequested.getCount() == 0;
    }

    private int run(TemporaryFiles tmp) throws Exception {
        Configuration options = CommandLineFlags.given(spec);
        options.set(KafkaOptions.CHECKPOINT_INTERVAL, Duration.ofSeconds(2));
        BundleChoice bundles = BundleChoice.ofThisInstallation();
        String byLanguage = languageBundles(bundles, options);
        if (byLanguage == null) {
            options.removeConfig(ServingOptions.LANGUAGE_BUNDLES);
        } else {
            options.set(ServingOptions.LANGUAGE_BUNDLES, byLanguage);
        }
        if (!noIndex) {
            index = DemoIndex.start(viewer);
            index.configure(options);
        }
        try (LocalPipeline p = LocalPipeline.start(
                options,
                bundles,
                StreamExecutionEnvironment.createLocalEnvironmentWithWebUI(LocalCluster.configuration(port, tmp.dir)),
                SessionFactory.ONNX_RUNTIME)) {
            System.out.printf(
                    "Kafka broker %s; Flink dashboard http://localhost:%d%n", p.kafka.bootstrapServers(), port);
            if (index != null) {
                System.out.println(index.serve());
            }
            try {
                return show(p, tmp);
            } finally {
                // A stop interrupted a wait above; the closing below waits too.
                interruptible = false;
                Thread.interrupted();
                if (ingest != null) {
                    ingest.cancel().get();
                }
            }
        } finally {
            if (index != null) {
                index.close();
            }
        }
    }

    private int show(LocalPipeline p, TemporaryFiles tmp) throws Exception {
        long t0 = System.nanoTime();
        List<DocumentEntities> docs;
        List<DeadLetter> dead;
        if (pubmed == null) {
            List<String> sample = SampleAbstracts.load(abstracts);
            List<String> records = new ArrayList<>(sample);
            records.addAll(BAD_RECORDS);
            ModelRoutes models = p.config.models();
            if (!models.forLanguage(SPANISH).equals(models.defaultModel())) {
                records.addAll(SampleAbstracts.load(SampleAbstracts.SPANISH_RESOURCE, spanishAbstracts));
            }
            p.produce(records);
            int expected = records.size() - BAD_RECORDS.size();
            p.documents.pollWhileProgressing(d -> d.size() >= expected, Duration.ofMinutes(5));
            p.deadLetters.pollUntil(d -> d.size() >= BAD_RECORDS.size(), Duration.ofSeconds(30));
            docs = p.documents.poll(Duration.ZERO);
        } else {
            ingest = startIngest(p, tmp);
            long expected = PubMedDirectory.citations(pubmed);
            System.out.printf("Ingesting %s: %d citations%n", pubmed, expected);
            p.documents.pollWhileProgressing(d -> p.documents.current().size() >= expected, Duration.ofMinutes(5));
            docs = new ArrayList<>(p.documents.current().values());
        }
        dead = p.deadLetters.poll(Duration.ZERO);
        double seconds = (System.nanoTime() - t0) / 1e9;
        boolean englishDefault = CommandLineFlags.given(spec)
                .getOptional(ServingOptions.BUNDLE)
                .filter(b -> !b.equals(BundleChoice.BUNDLE_IN_JAR))
                .isEmpty();
        System.out.print(DemoSummary.of(DemoSummary.models(p.config.models(), englishDefault), docs, dead, seconds));
        if (index != null) {
            dead.forEach(d -> index.deadLetterArrived());
            long expected =
                    docs.stream().map(DocumentEntities::getEventId).distinct().count();
            long searchable = index.awaitSearchable(expected, Duration.ofMinutes(2));
            System.out.printf(
                    "search and view: %s (%d of %d documents searchable in index %s)%n",
                    index.pageUrl(), searchable, expected, index.index());
        }
        if (!exitWhenDone) {
            System.out.println("The job keeps running for the dashboard and the page; Ctrl-C stops it.");
            interruptible = false;
            keepReadingDeadLetters(p, dead.size());
        }
        return 0;
    }

    /** Until stopped: new dead letters count in the page's live line (the job's other outputs are in the index). */
    private void keepReadingDeadLetters(LocalPipeline p, int seen) throws InterruptedException {
        if (index == null) {
            stopRequested.await();
        }
        while (!stopping()) {
            int now = p.deadLetters.poll(Duration.ofSeconds(1)).size();
            for (; seen < now; seen++) {
                index.deadLetterArrived();
            }
        }
    }

    /**
     * The language bundles the demo serves: the option's, none, or by default the repository's
     * Spanish bundle, which a clone always has (a missing one is an error, not English only).
     */
    private static String languageBundles(BundleChoice bundles, Configuration options) {
        String languageBundles = options.get(ServingOptions.LANGUAGE_BUNDLES);
        if (languageBundles != null) {
            return languageBundles.equals(NO_LANGUAGE_BUNDLES) ? null : languageBundles;
        }
        return SPANISH + "=" + bundles.spanish(options);
    }

    /** The ingest job on a second local cluster (no dashboard), watching --pubmed, checkpoints every 2 s. */
    private JobClient startIngest(LocalPipeline p, TemporaryFiles tmp) throws Exception {
        Configuration c = new Configuration();
        c.set(IngestOptions.DIRECTORY, pubmed.toAbsolutePath().toUri().toString());
        c.set(IngestOptions.MONITOR_INTERVAL, Duration.ofSeconds(2));
        c.set(KafkaOptions.BOOTSTRAP_SERVERS, p.kafka.bootstrapServers());
        c.set(KafkaOptions.CHECKPOINT_INTERVAL, Duration.ofSeconds(2));
        IngestConfig cfg = IngestConfig.from(c);
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.createLocalEnvironment(LocalCluster.configuration(0, tmp.dir));
        IngestJob.wire(env, cfg);
        return env.executeAsync(IngestJob.NAME);
    }
}
