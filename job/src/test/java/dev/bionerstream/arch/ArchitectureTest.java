package dev.bionerstream.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The layering the code is drawn with: cli -> job -> serving -> engine -> inference ->
 * model/features/text, with the sinks beside the job, and ingest (the PubMed job) beside it too:
 * both jobs stand as peers on the shared Kafka transport ({@code kafka}) and on the input records
 * ({@code records}: their formats, checks and decoding), which stands on nothing of theirs.
 * The model core and the feed formats (pubmed, formats) run without Flink, so they can be reused
 * and tested alone, and no package depends on one that depends back on it. The viewer reads the
 * index over HTTP only: the cli and the demo wire it, it knows neither them nor the job nor Flink.
 * The benchmarks ({@code bench}) sit under the cli only, listening to the batcher as the job's
 * metrics do.
 */
@AnalyzeClasses(packages = "dev.bionerstream", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {
    @ArchTest
    static final ArchRule MODEL_CORE_IS_FLINK_FREE = noClasses()
            .that()
            .resideInAnyPackage(
                    "..engine..",
                    "..model..",
                    "..inference..",
                    "..features..",
                    "..syntax..",
                    "..text..",
                    "..eval..",
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
    static final ArchRule SINKS_DO_NOT_KNOW_THE_JOB = noClasses()
            .that()
            .resideInAPackage("..sink..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("dev.bionerstream.job..", "dev.bionerstream.cli..")
            .because("a sink is configured by its own options; the job only wires it");

    @ArchTest
    static final ArchRule THE_ANNOTATION_JOB_DOES_NOT_KNOW_THE_FEEDS = noClasses()
            .that()
            .resideInAnyPackage("dev.bionerstream.job..", "dev.bionerstream.serving..", "dev.bionerstream.engine..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("dev.bionerstream.ingest..", "dev.bionerstream.pubmed..")
            .because("feeds write to the input topic; the annotation job reads any producer's records");

    @ArchTest
    static final ArchRule THE_FEED_JOB_DOES_NOT_KNOW_THE_ANNOTATION_JOB = noClasses()
            .that()
            .resideInAPackage("dev.bionerstream.ingest..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("dev.bionerstream.job..", "dev.bionerstream.serving..", "dev.bionerstream.sink..")
            .because("the feed job needs no model and no index: what it shares with the annotation job is "
                    + "dev.bionerstream.kafka and dev.bionerstream.records, so it accepts only its own keys");

    @ArchTest
    static final ArchRule THE_SHARED_KAFKA_LAYER_KNOWS_NEITHER_JOB = noClasses()
            .that()
            .resideInAPackage("dev.bionerstream.kafka..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                    "dev.bionerstream.job..",
                    "dev.bionerstream.ingest..",
                    "dev.bionerstream.serving..",
                    "dev.bionerstream.cli..")
            .because("both jobs depend on it as peers");

    @ArchTest
    static final ArchRule ONLY_THE_COMMAND_LINE_RUNS_BENCHMARKS = noClasses()
            .that()
            .resideOutsideOfPackages("dev.bionerstream.bench..", "dev.bionerstream.cli..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("dev.bionerstream.bench..")
            .because("a benchmark listens to the serving code through its listener seam; nothing the job runs "
                    + "carries benchmark code or state");

    @ArchTest
    static final ArchRule INPUT_RECORDS_KNOW_NEITHER_JOB_NOR_TRANSPORT = noClasses()
            .that()
            .resideInAPackage("dev.bionerstream.records..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                    "org.apache.flink..",
                    "dev.bionerstream.job..",
                    "dev.bionerstream.ingest..",
                    "dev.bionerstream.cli..",
                    "dev.bionerstream.demo..",
                    "dev.bionerstream.kafka..")
            .because("a record is decoded the same whoever carries it: both jobs, the cli and the feeds use "
                    + "these formats, and the parser is tested without Flink or Kafka");

    @ArchTest
    static final ArchRule ENGINE_DOES_NOT_KNOW_ITS_CALLERS = noClasses()
            .that()
            .resideInAnyPackage("..engine..", "..inference..", "..model..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("dev.bionerstream.serving..", "dev.bionerstream.job..", "dev.bionerstream.cli..");

    @ArchTest
    static final ArchRule THE_VIEWER_KNOWS_ONLY_THE_INDEX = noClasses()
            .that()
            .resideInAPackage("dev.bionerstream.viewer..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                    "org.apache.flink..",
                    "org.opensearch..",
                    "dev.bionerstream.job..",
                    "dev.bionerstream.cli..",
                    "dev.bionerstream.demo..",
                    "dev.bionerstream.sink..",
                    "dev.bionerstream.serving..",
                    "dev.bionerstream.engine..")
            .because("the page's server runs beside any deployment with the JDK, Jackson and SLF4J alone, and is "
                    + "tested against a bare OpenSearch node");
}
