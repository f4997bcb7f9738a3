package dev.bionerstream.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import dev.bionerstream.nativelib.LibraryThread;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Test;

/**
 * The layering the code is drawn with, as one rule ({@link #THE_LAYERS}), from the top: the command
 * line; the benchmarks (under the cli only, listening to the batcher as the job's metrics do); the
 * demo; the two jobs as peers, annotation ({@code job}, with its index sink) and feeds ({@code
 * ingest}); serving -> batching (the shared micro-batcher) -> engine -> inference; and at the bottom what both jobs share without knowing
 * either: the Kafka transport ({@code kafka}), the options layer ({@code options}: command-line
 * parsing, the checks and the text every option shows, as help or as docs), the input records ({@code records}: formats, checks,
 * decoding), the feed formats ({@code pubmed}, {@code formats}) and the model core (bundles, features,
 * the native libraries' thread, syntax, text, evaluation, the entity linker); under them the record
 * schemas ({@code avro}: the classes generated from schemas/*.avsc) that the jobs, the feed formats,
 * the Kafka transport and the index sink write and read. The viewer reads the index over HTTP only: the cli wires it, it knows no
 * other layer but the TLS trust ({@code tls}: a cluster's own CA) it shares with the index sink. The model core and the feed formats run without Flink, so they can be reused and
 * tested alone, and no package depends on one that depends back on it. Every class is in a layer:
 * a new package fails the rule until it is given one.
 */
@AnalyzeClasses(packages = "dev.bionerstream", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {
    static final String CLI = "command line",
            BENCH = "benchmarks",
            DEMO = "demo",
            JOB = "annotation job",
            FEEDS_JOB = "feed job",
            SINK = "index sink",
            VIEWER = "viewer",
            SERVING = "serving",
            BATCHING = "batching",
            ENGINE = "engine",
            INFERENCE = "inference",
            KAFKA = "Kafka transport",
            OPTIONS = "options",
            RECORDS = "input records",
            FEEDS = "feed formats",
            TLS = "TLS trust",
            CORE = "model core",
            SCHEMAS = "record schemas";

    @ArchTest
    static final ArchRule THE_LAYERS = layeredArchitecture()
            .consideringOnlyDependenciesInLayers()
            .ensureAllClassesAreContainedInArchitecture()
            .layer(CLI)
            .definedBy("dev.bionerstream.cli..")
            .layer(BENCH)
            .definedBy("dev.bionerstream.bench..")
            .layer(DEMO)
            .definedBy("dev.bionerstream.demo..")
            .layer(JOB)
            .definedBy("dev.bionerstream.job..")
            .layer(FEEDS_JOB)
            .definedBy("dev.bionerstream.ingest..")
            .layer(SINK)
            .definedBy("dev.bionerstream.sink..")
            .layer(VIEWER)
            .definedBy("dev.bionerstream.viewer..")
            .layer(SERVING)
            .definedBy("dev.bionerstream.serving..")
            .layer(BATCHING)
            .definedBy("dev.bionerstream.batching..")
            .layer(ENGINE)
            .definedBy("dev.bionerstream.engine..")
            .layer(INFERENCE)
            .definedBy("dev.bionerstream.inference..")
            .layer(KAFKA)
            .definedBy("dev.bionerstream.kafka..")
            .layer(OPTIONS)
            .definedBy("dev.bionerstream.options..")
            .layer(RECORDS)
            .definedBy("dev.bionerstream.records..")
            .layer(FEEDS)
            .definedBy("dev.bionerstream.pubmed..", "dev.bionerstream.formats..")
            .layer(TLS)
            .definedBy("dev.bionerstream.tls..")
            .layer(CORE)
            .definedBy(
                    "dev.bionerstream.model..",
                    "dev.bionerstream.features..",
                    "dev.bionerstream.nativelib..",
                    "dev.bionerstream.syntax..",
                    "dev.bionerstream.text..",
                    "dev.bionerstream.eval..",
                    "dev.bionerstream.linking..")
            .layer(SCHEMAS)
            .definedBy("dev.bionerstream.avro..")
            .whereLayer(CLI)
            .mayNotBeAccessedByAnyLayer()
            .whereLayer(BENCH)
            .mayOnlyBeAccessedByLayers(CLI)
            .whereLayer(DEMO)
            .mayOnlyBeAccessedByLayers(CLI, BENCH)
            .whereLayer(JOB)
            .mayOnlyBeAccessedByLayers(CLI, BENCH, DEMO)
            .whereLayer(FEEDS_JOB)
            .mayOnlyBeAccessedByLayers(CLI)
            .whereLayer(SINK)
            .mayOnlyBeAccessedByLayers(CLI, BENCH, JOB)
            .whereLayer(VIEWER)
            .mayOnlyBeAccessedByLayers(CLI, BENCH)
            .whereLayer(SERVING)
            .mayOnlyBeAccessedByLayers(CLI, BENCH, DEMO, JOB)
            .whereLayer(BATCHING)
            .mayOnlyBeAccessedByLayers(BENCH, JOB, SERVING)
            .whereLayer(ENGINE)
            .mayOnlyBeAccessedByLayers(CLI, BENCH, JOB, SERVING, BATCHING)
            .whereLayer(INFERENCE)
            .mayOnlyBeAccessedByLayers(BENCH, ENGINE, SERVING, BATCHING)
            .whereLayer(KAFKA)
            .mayOnlyBeAccessedByLayers(CLI, BENCH, DEMO, JOB, FEEDS_JOB)
            .whereLayer(OPTIONS)
            .mayOnlyBeAccessedByLayers(CLI, BENCH, DEMO, JOB, FEEDS_JOB, SINK, SERVING, KAFKA)
            .whereLayer(RECORDS)
            .mayOnlyBeAccessedByLayers(CLI, JOB, FEEDS_JOB)
            .whereLayer(FEEDS)
            .mayOnlyBeAccessedByLayers(CLI, FEEDS_JOB)
            .whereLayer(TLS)
            .mayOnlyBeAccessedByLayers(SINK, VIEWER)
            .whereLayer(CORE)
            .mayOnlyBeAccessedByLayers(CLI, BENCH, DEMO, JOB, SERVING, BATCHING, ENGINE, INFERENCE)
            .whereLayer(SCHEMAS)
            .mayOnlyBeAccessedByLayers(CLI, BENCH, DEMO, JOB, FEEDS_JOB, SINK, KAFKA, RECORDS, FEEDS)
            .because("a layer knows only those below it: the model core runs without its callers, the feed job "
                    + "needs no model and no index, the Kafka transport and the input records serve both jobs "
                    + "as peers, and nothing the job runs carries the demo's or the benchmarks' code");

    /** A class of a package no layer lists (this test's own) breaks the layer rule. */
    @Test
    void aPackageInNoLayerFailsTheLayerRule() {
        EvaluationResult result = THE_LAYERS.evaluate(new ClassFileImporter().importClasses(ArchitectureTest.class));
        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().getDetails())
                .anyMatch(line -> line.contains(ArchitectureTest.class.getName()));
    }

    @ArchTest
    static final ArchRule MODEL_CORE_IS_FLINK_FREE = noClasses()
            .that()
            .resideInAnyPackage(
                    "..batching..",
                    "..engine..",
                    "..model..",
                    "..inference..",
                    "..features..",
                    "..nativelib..",
                    "..syntax..",
                    "..text..",
                    "..eval..",
                    "..linking..",
                    "..pubmed..",
                    "..formats..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("org.apache.flink..")
            .because("the engine must run and be tested without Flink (the CLI, other hosts)");

    @ArchTest
    static final ArchRule NO_PACKAGE_CYCLES =
            slices().matching("dev.bionerstream.(**)").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule INPUT_RECORDS_ARE_FLINK_FREE = noClasses()
            .that()
            .resideInAPackage("dev.bionerstream.records..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("org.apache.flink..")
            .because("a record is decoded the same whoever carries it, and the parser is tested without Flink");

    @ArchTest
    static final ArchRule THE_VIEWER_NEEDS_NEITHER_FLINK_NOR_AN_OPENSEARCH_CLIENT = noClasses()
            .that()
            .resideInAPackage("dev.bionerstream.viewer..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("org.apache.flink..", "org.opensearch..")
            .because("the page's server runs beside any deployment with the JDK, Jackson and SLF4J alone, and is "
                    + "tested against a bare OpenSearch node");

    /** A call that runs its work on the JDK's common pool, whose worker threads outlive a job. */
    private static final DescribedPredicate<JavaMethodCall> ON_THE_COMMON_POOL =
            new DescribedPredicate<>("runs code on the JDK's common pool") {
                @Override
                public boolean test(JavaMethodCall call) {
                    String owner = call.getTargetOwner().getName();
                    String name = call.getName();
                    boolean noExecutor = call.getTarget().getRawParameterTypes().size() == 1;
                    return name.equals("parallelStream")
                            || (name.equals("parallel") && owner.startsWith("java.util.stream."))
                            || (name.equals("commonPool") && owner.equals(ForkJoinPool.class.getName()))
                            || (owner.equals(CompletableFuture.class.getName())
                                    && Set.of("supplyAsync", "runAsync").contains(name)
                                    && noExecutor);
                }
            };

    @ArchTest
    static final ArchRule NO_JOB_CODE_ON_THE_COMMON_POOL = noClasses()
            .that()
            .doNotBelongToAnyOf(LibraryThread.class)
            .should()
            .callMethodWhere(ON_THE_COMMON_POOL)
            .because("a TaskManager runs job after job: what job code leaves on the common pool's long-lived"
                    + " workers (Jackson's buffer recycler, a thread-local) keeps an ended job's class loader"
                    + " alive; LibraryThread uses the pool only to start clean threads, with no job class on"
                    + " the stack");

    /** What the vocabularies' load once was: a parallel stream. */
    static final class LoadsOnTheCommonPool {
        List<String> load(List<String> types) {
            return types.parallelStream().map(String::strip).toList();
        }
    }

    @Test
    void aParallelStreamBreaksTheCommonPoolRule() {
        EvaluationResult result = NO_JOB_CODE_ON_THE_COMMON_POOL.evaluate(
                new ClassFileImporter().importClasses(LoadsOnTheCommonPool.class));
        assertThat(result.getFailureReport().getDetails())
                .anyMatch(line -> line.contains("parallelStream") && line.contains("LoadsOnTheCommonPool"));
    }
}
