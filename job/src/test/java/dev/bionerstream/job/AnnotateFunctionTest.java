package dev.bionerstream.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.avro.Abstract;
import dev.bionerstream.engine.BatchSize;
import dev.bionerstream.engine.GateSetting;
import dev.bionerstream.engine.GeneSpans;
import dev.bionerstream.features.MrcTokenizer;
import dev.bionerstream.inference.InferenceOptions;
import dev.bionerstream.kafka.DeadLetters;
import dev.bionerstream.kafka.RawRecord;
import dev.bionerstream.model.ModelBundle;
import dev.bionerstream.model.RelabelledBundle;
import dev.bionerstream.serving.ModelRoutes;
import dev.bionerstream.serving.ServingConfig;
import dev.bionerstream.serving.SessionFactory;
import dev.bionerstream.serving.SharedModels;
import dev.bionerstream.serving.TestingMrcSession;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import org.apache.flink.streaming.api.operators.async.AsyncWaitOperatorFactory;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The async operator over the shared micro-batcher, in Flink's operator test harness. */
class AnnotateFunctionTest {
    static final long TIMEOUT_MS = 10_000;
    static TestingMrcSession session;

    @BeforeAll
    static void model() {
        try (MrcTokenizer t = new MrcTokenizer(ModelBundle.loadDefault().tokenizerJson())) {
            session = new TestingMrcSession(Set.of(t.ids("lithium")[0]));
        }
    }

    /** Each test its own registry, so each gets its own shared batcher. */
    static SharedModels registry;

    @BeforeEach
    void ownRegistry() {
        registry = new SharedModels();
    }

    static ServingConfig config(int maxSize, Duration maxWait) {
        return new ServingConfig(
                null,
                List.of(),
                GateSetting.BUNDLE,
                Map.of(),
                GeneSpans.PUBTATOR,
                InferenceOptions.cpu(1),
                new BatchSize(maxSize),
                maxWait,
                1,
                4000);
    }

    static OneInputStreamOperatorTestHarness<SourcedAbstract, Outcome> harness(ServingConfig cfg) throws Exception {
        return harness(new ModelRoutes(cfg, Map.of()));
    }

    static OneInputStreamOperatorTestHarness<SourcedAbstract, Outcome> harness(ModelRoutes models) throws Exception {
        return harness(models, 0);
    }

    static OneInputStreamOperatorTestHarness<SourcedAbstract, Outcome> harness(ModelRoutes models, int retries)
            throws Exception {
        SessionFactory testing = (bundle, options) -> session;
        var h = new OneInputStreamOperatorTestHarness<>(
                new AsyncWaitOperatorFactory<>(
                        new AnnotateFunction(models, testing, retries, () -> registry),
                        TIMEOUT_MS,
                        10,
                        AsyncDataStream.OutputMode.ORDERED),
                TypeInformation.of(SourcedAbstract.class).createSerializer(new SerializerConfigImpl()));
        h.open();
        return h;
    }

    @Test
    void theRecordsLanguagePicksItsModelAndADeletionGoesToEveryModel(@TempDir Path dir) throws Exception {
        ServingConfig english = config(8, Duration.ofMillis(1));
        ServingConfig spanish = new ServingConfig(
                RelabelledBundle.write(dir.resolve("es"), "bioner-mrc-es-test", "0.1.0")
                        .toString(),
                List.of(),
                GateSetting.BUNDLE,
                Map.of(),
                GeneSpans.PUBTATOR,
                english.inference(),
                new BatchSize(8),
                english.batchMaxWait(),
                1,
                4000);
        var h = harness(new ModelRoutes(english, Map.of("spa", spanish)));
        String defaultModel = ModelBundle.loadDefault().manifest().name();
        List<String> languages = Arrays.asList("eng", "es", "spa", "xyz", null);
        for (int i = 0; i < languages.size(); i++) {
            Abstract a = Abstract.newBuilder()
                    .setId("d" + i)
                    .setTitle("Lithium was given.")
                    .setLanguage(languages.get(i))
                    .build();
            h.processElement(
                    new StreamRecord<>(new SourcedAbstract(a, new RawRecord(null, new byte[0], "abstracts", 0, i))));
        }
        h.processElement(
                new StreamRecord<>(SourcedAbstract.deletion("d0", new RawRecord(null, null, "abstracts", 0, 9))));
        h.endInput();
        List<Outcome> out = h.extractOutputValues();
        assertThat(out.subList(0, 5))
                .extracting(o -> o.update.document.getModelName())
                .containsExactly(defaultModel, "bioner-mrc-es-test", "bioner-mrc-es-test", defaultModel, defaultModel);
        assertThat(out.subList(5, out.size()))
                .as("one deletion per model: each model's record of d0 has its own index id")
                .extracting(o -> o.update.eventId)
                .containsExactlyInAnyOrder(
                        EventIds.document(
                                "d0", ModelBundle.loadDefault().manifest().id()),
                        EventIds.document("d0", "bioner-mrc-es-test:0.1.0"));
        assertThat(out.get(0).update.eventId)
                .isEqualTo(EventIds.document(
                        "d0", ModelBundle.loadDefault().manifest().id()));
        h.close();
    }

    static StreamRecord<SourcedAbstract> doc(String id, String title) {
        return new StreamRecord<>(new SourcedAbstract(
                Abstract.newBuilder().setId(id).setTitle(title).build(),
                new RawRecord(null, new byte[0], "abstracts", 0, 7)));
    }

    static void finish(OneInputStreamOperatorTestHarness<SourcedAbstract, Outcome> h) throws Exception {
        h.endInput();
        h.close();
    }

    @Test
    void subtasksShareOneBatchThatClosesAtMaxSize() throws Exception {
        int before = session.batches.size();
        ServingConfig cfg = config(8, Duration.ofHours(1)); // one title = 1 sentence x 4 types = 4 windows
        var first = harness(cfg);
        var second = harness(cfg);
        first.processElement(doc("a", "Lithium toxicity."));
        second.processElement(doc("b", "Renal failure after lithium."));
        finish(first);
        finish(second);
        assertThat(session.batches.size() - before).isEqualTo(1);
        assertThat(session.batches.get(before)).hasSize(8);
        Outcome a = first.extractOutputValues().get(0);
        assertThat(a.isFailed()).isFalse();
        assertThat(a.update.document.getEntities()).extracting(m -> m.getText()).contains("Lithium");
        assertThat(second.extractOutputValues().get(0).update.document.getDocumentId())
                .isEqualTo("b");
    }

    @Test
    void aPartialBatchClosesAtMaxWaitAndAtEndOfInput() throws Exception {
        var h = harness(config(1000, Duration.ofMillis(20)));
        h.processElement(doc("c", "Lithium and cocaine."));
        finish(h);
        assertThat(h.extractOutputValues()).singleElement().satisfies(o -> assertThat(o.isFailed())
                .isFalse());
    }

    @Test
    void aModelFailureBecomesADeadLetterAndTheNextDocumentFlows() throws Exception {
        var h = harness(config(4, Duration.ofMillis(5)));
        session.failNext = 1;
        int before = session.batches.size();
        h.processElement(doc("d", "Lithium toxicity."));
        // d's batch must fail alone: a failed batch fails every document with a window in it
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (session.batches.size() == before && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        h.processElement(doc("e", "Lithium toxicity."));
        finish(h);
        List<Outcome> out = h.extractOutputValues();
        assertThat(out).hasSize(2);
        assertThat(out).filteredOn(Outcome::isFailed).singleElement().satisfies(o -> {
            assertThat(o.deadLetter.getStage()).isEqualTo(DeadLetters.INFERENCE);
            assertThat(o.deadLetter.getErrorMessage()).contains("injected model failure");
            assertThat(o.deadLetter.getOffset()).isEqualTo(7);
        });
        assertThat(out).filteredOn(o -> !o.isFailed()).singleElement().satisfies(o -> assertThat(
                        o.update.document.getDocumentId())
                .isEqualTo("e"));
    }

    @Test
    void aTimeoutBecomesADeadLetterAndWithdrawsTheDocumentsQueuedWindows() throws Exception {
        int before = session.batches.size();
        var h = harness(config(1000, Duration.ofHours(1)));
        h.processElement(doc("f", "Lithium toxicity."));
        h.setProcessingTime(TIMEOUT_MS + 1);
        finish(h); // closing the batcher would run whatever is still queued
        assertThat(h.extractOutputValues()).singleElement().satisfies(o -> {
            assertThat(o.isFailed()).isTrue();
            assertThat(o.deadLetter.getErrorMessage()).contains("did not finish within async.timeout");
        });
        assertThat(session.batches.size()).as("batches run after the timeout").isEqualTo(before);
    }

    @Test
    void closingWithDocumentsInFlightCompletesNoneAndRunsNoneOfTheirWindows() throws Exception {
        int before = session.batches.size();
        var h = harness(config(1000, Duration.ofHours(1)));
        h.processElement(doc("g", "Lithium toxicity."));
        h.close(); // a stop-with-savepoint without drain: the document is in the savepoint
        assertThat(h.extractOutputValues()).as("outcomes after close").isEmpty();
        assertThat(session.batches.size()).as("batches run at close").isEqualTo(before);
    }

    @Test
    void aFailedModelCallIsTriedAgainAndTheDocumentComesOut() throws Exception {
        var h = harness(new ModelRoutes(config(4, Duration.ofMillis(5)), Map.of()), 1);
        session.failNext = 1;
        int before = session.batches.size();
        h.processElement(doc("r", "Lithium toxicity."));
        finish(h);
        assertThat(h.extractOutputValues()).singleElement().satisfies(o -> {
            assertThat(o.isFailed()).isFalse();
            assertThat(o.update.document.getDocumentId()).isEqualTo("r");
        });
        assertThat(session.batches.size() - before)
                .as("batches: the failed one and the retry")
                .isEqualTo(2);
    }
}
