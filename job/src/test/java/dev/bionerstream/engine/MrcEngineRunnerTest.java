package dev.bionerstream.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.model.ModelBundle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The engine's one door: every window of every text goes to the runner in one call, and cancellation goes back to it. */
class MrcEngineRunnerTest {
    /** A runner that keeps the calls it gets and answers only when told. */
    static final class TestingRunner implements WindowRunner {
        final List<List<MrcWindow>> calls = new ArrayList<>();
        final List<CompletableFuture<List<WindowResult>>> futures = new ArrayList<>();

        @Override
        public CompletableFuture<List<WindowResult>> run(List<MrcWindow> windows) {
            calls.add(windows);
            CompletableFuture<List<WindowResult>> f = new CompletableFuture<>();
            futures.add(f);
            return f;
        }
    }

    @Test
    void allTextsGoToTheRunnerInOneCallAndCancellationReachesIt() {
        ModelBundle bundle = ModelBundle.loadDefault();
        TestingRunner runner = new TestingRunner();
        try (MrcEngine engine = new MrcEngine(bundle, List.of("chemical", "disease"))) {
            CompletableFuture<Extraction> x =
                    engine.extract(List.of("Lithium toxicity.", "Cocaine. Heroin."), Segmentation.SENTENCES, runner);
            assertThat(runner.calls).singleElement().satisfies(w -> assertThat(w)
                    .hasSize((1 + 2) * 2));
            assertThat(x).isNotDone();
            x.cancel(false);
            assertThat(runner.futures.get(0)).isCancelled();
        }
    }

    @Test
    void aRunnerFailureFailsTheExtraction() {
        TestingRunner runner = new TestingRunner();
        try (MrcEngine engine = new MrcEngine(ModelBundle.loadDefault(), List.of())) {
            CompletableFuture<Extraction> x = engine.extract(List.of("Lithium."), Segmentation.SENTENCES, runner);
            runner.futures.get(0).completeExceptionally(new IllegalStateException("model gone"));
            assertThat(x).isCompletedExceptionally();
        }
    }
}
