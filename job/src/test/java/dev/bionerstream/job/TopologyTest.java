package dev.bionerstream.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.avro.DeadLetter;
import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.avro.EntityEvent;
import dev.bionerstream.features.MrcTokenizer;
import dev.bionerstream.kafka.RawRecord;
import dev.bionerstream.model.ModelBundle;
import dev.bionerstream.serving.BundleChoice;
import dev.bionerstream.serving.SessionFactory;
import dev.bionerstream.serving.TestingMrcSession;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The job's topology on a bounded list of records with collecting sinks, the way Flink's own recipes
 * test a pipeline: routing to documents, entity events and dead letters, tombstones, and language
 * routing, and the record-age metric, in seconds and without Kafka. The model answers at once: "lithium" (and "zinc") is an
 * entity of every asked type.
 */
class TopologyTest {
    static final Path SPANISH_BUNDLE = Path.of("..", "bundles", "pharmaconer-es");
    static final Duration APPENDED_AGO = Duration.ofMinutes(1);
    static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setConfiguration(REPORTER.addToConfiguration(new Configuration()))
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(1)
            .build());

    static TestingMrcSession model;

    @BeforeAll
    static void model() {
        try (MrcTokenizer english = new MrcTokenizer(ModelBundle.loadDefault().tokenizerJson());
                MrcTokenizer spanish =
                        new MrcTokenizer(ModelBundle.load(SPANISH_BUNDLE).tokenizerJson())) {
            model = new TestingMrcSession(Set.of(english.ids("lithium")[0], spanish.ids("zinc")[0]));
        }
    }

    @Test
    void recordsAreRoutedToDocumentsEventsAndDeadLettersInInputOrder() throws Exception {
        List<RawRecord> input = List.of(
                record(
                        0,
                        "en1",
                        "{\"id\": \"en1\", \"title\": \"Lithium toxicity.\", \"abstract\": \"We gave lithium.\"}"),
                record(1, "bad1", "not json at all"),
                record(2, "es1", "{\"id\": \"es1\", \"title\": \"Se le administró zinc .\", \"language\": \"spa\"}"),
                record(3, "en1", null), // a tombstone: en1 is deleted after it was annotated
                record(4, "noid", "{\"title\": \"Lithium without an id.\"}"));
        String english = ModelBundle.loadDefault().manifest().id();
        String spanish = ModelBundle.load(SPANISH_BUNDLE).manifest().id();

        // no type may fall back to Kryo: a record that gains a field (as the link fields came) would not restore
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(
                Configuration.fromMap(Map.of(PipelineOptions.GENERIC_TYPES.key(), "false")));
        env.setParallelism(1);
        long appended = System.currentTimeMillis() - APPENDED_AGO.toMillis(); // as a Kafka source would stamp them
        JobConfig cfg = JobConfig.from(
                Configuration.fromMap(Map.of(
                        "kafka.bootstrap-servers", "unused:9092",
                        "model.language-bundles", "spa=" + SPANISH_BUNDLE,
                        "batch.max-wait", "1 ms")),
                BundleChoice.NO_INSTALLATION);
        SessionFactory testing = (bundle, options) -> model;
        Topology.Outputs out = Topology.build(
                env.fromData(input)
                        .assignTimestampsAndWatermarks(WatermarkStrategy.<RawRecord>noWatermarks()
                                .withTimestampAssigner((r, previous) -> appended)),
                cfg,
                testing);
        CloseableIterator<DocumentUpdate> documents = out.documents().collectAsync();
        CloseableIterator<EntityEvent> entities = out.entities().collectAsync();
        CloseableIterator<DeadLetter> deadLetters = out.deadLetters().collectAsync();
        JobID job = env.execute("topology on a bounded source").getJobID();

        List<DocumentUpdate> updates = drain(documents);
        assertThat(updates)
                .extracting(u -> u.documentId + (u.isDeletion() ? " deleted" : " " + u.document.getModelName()))
                .as("documents and deletions in input order, each document read by its language's bundle;"
                        + " a tombstone deletes the document under every served bundle, which of them read it")
                .containsExactly(
                        "en1 " + english.substring(0, english.indexOf(':')),
                        "es1 " + spanish.substring(0, spanish.indexOf(':')),
                        "en1 deleted",
                        "en1 deleted");
        assertThat(updates.subList(2, 4))
                .extracting(u -> u.eventId)
                .as("the deletions' event ids: the English document's, and the one a Spanish reading would have")
                .containsExactlyInAnyOrder(updates.get(0).eventId, EventIds.document("en1", spanish));

        Map<String, List<EntityEvent>> events =
                drain(entities).stream().collect(Collectors.groupingBy(e -> e.getDocumentId()));
        assertThat(events.get("en1"))
                .as("one event per mention and asked type: 'Lithium' in the title, 'lithium' in the abstract")
                .hasSize(2 * 4)
                .allSatisfy(e -> assertThat(e.getText().toLowerCase()).isEqualTo("lithium"))
                .extracting(e -> e.getModelName() + ":" + e.getModelVersion())
                .containsOnly(english);
        assertThat(events.get("en1"))
                .filteredOn(e -> e.getEntityType().equals("chemical"))
                .as("the chemicals linked in the 'link concepts' stage, to MeSH's Lithium")
                .hasSize(2)
                .allSatisfy(e -> {
                    assertThat(e.getConceptId()).isEqualTo("mesh:D008094");
                    assertThat(e.getConceptName()).isEqualTo("Lithium");
                    assertThat(e.getLinkScore()).isEqualTo(1.0);
                    assertThat(e.getVocabulary()).isEqualTo("bioner-vocab-chemical:2024.1");
                });
        DocumentEntities en1 = updates.get(0).document;
        assertThat(en1.getLinks())
                .as("the document's links, one per mention, the same as its events'")
                .hasSameSizeAs(en1.getEntities())
                .filteredOn(l -> "bioner-vocab-chemical:2024.1".equals(l.getVocabulary()))
                .extracting(l -> l.getConceptId())
                .containsExactly("mesh:D008094", "mesh:D008094");
        assertThat(events.get("es1"))
                .as("the Spanish bundle's three types, each finding 'zinc'")
                .hasSize(3)
                .allSatisfy(e -> assertThat(e.getText()).isEqualTo("zinc"))
                .as("no vocabulary for the Spanish model's types: not linked")
                .allSatisfy(e -> assertThat(e.getVocabulary()).isNull());
        assertThat(events).as("no events for a deletion or a refused record").containsOnlyKeys("en1", "es1");

        Map<Long, DeadLetter> letters =
                drain(deadLetters).stream().collect(Collectors.toMap(DeadLetter::getOffset, Function.identity()));
        assertThat(letters).as("dead letters by input offset").containsOnlyKeys(1L, 4L);
        assertThat(letters.get(1L).getStage()).isEqualTo("parse");
        assertThat(letters.get(4L).getErrorMessage()).containsIgnoringCase("id");
        assertRecordAge(job);
        assertBatcherGauges(job);
    }

    /** Each model's batcher in the dashboard: both models ran batches, so both were busy some of the time. */
    @SuppressWarnings("unchecked")
    private static void assertBatcherGauges(JobID job) {
        for (String name : List.of(Metrics.MODEL_BUSY, Metrics.PADDING_EFFICIENCY)) {
            assertThat(REPORTER.findMetrics(job, name))
                    .as("%s gauges by metric identifier", name)
                    .hasSize(2)
                    .allSatisfy((id, gauge) -> assertThat(((Gauge<Double>) gauge).getValue())
                            .as(id)
                            .isGreaterThan(0.0)
                            .isLessThanOrEqualTo(1.0));
        }
    }

    /**
     * The dashboard's record age: from each record's timestamp on the input topic to its outcome leaving
     * for the sinks, for the four outcomes routed (two documents, the deletion under both bundles).
     */
    private static void assertRecordAge(JobID job) {
        Histogram age = (Histogram) REPORTER.findMetrics(job, Metrics.RECORD_AGE_MS).values().stream()
                .findFirst()
                .orElseThrow(() -> new AssertionError(Metrics.RECORD_AGE_MS + " not registered for job " + job));
        assertThat(age.getCount()).as("outcomes with an age").isEqualTo(4);
        assertThat(age.getStatistics().getMin())
                .as("age in ms of records appended %s before the job started", APPENDED_AGO)
                .isGreaterThanOrEqualTo(APPENDED_AGO.toMillis())
                .isLessThan(APPENDED_AGO.plusMinutes(10).toMillis());
    }

    private static RawRecord record(long offset, String key, String json) {
        return new RawRecord(
                key.getBytes(StandardCharsets.UTF_8),
                json == null ? null : json.getBytes(StandardCharsets.UTF_8),
                "abstracts",
                0,
                offset);
    }

    private static <T> List<T> drain(CloseableIterator<T> it) throws Exception {
        List<T> out = new ArrayList<>();
        try (it) {
            it.forEachRemaining(out::add);
        }
        return out;
    }
}
