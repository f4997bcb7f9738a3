package dev.bionerstream.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.inference.WindowLogits;
import dev.bionerstream.model.ModelBundle;
import dev.bionerstream.model.RelabelledBundle;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    /** Gate results: per window, the presence logits of the bundle's four types (chemical, disease, gene, species). */
    static List<WindowResult> presence(float[]... perWindow) {
        List<WindowResult> out = new ArrayList<>();
        for (float[] p : perWindow) {
            out.add(new WindowResult(new WindowLogits(new float[0], new float[0], p), perWindow.length, 0, 0));
        }
        return out;
    }

    static List<WindowResult> nothingFound(List<MrcWindow> windows) {
        return windows.stream()
                .map(w -> new WindowResult(
                        new WindowLogits(new float[2 * w.contextLength()], new float[2 * w.contextLength()]),
                        windows.size(),
                        0,
                        0))
                .toList();
    }

    static final float YES = 2f;
    static final float NO = -5f;

    @Test
    void withAGateASentenceIsAskedOnlyTheTypesItMayHold(@TempDir Path dir) throws Exception {
        TestingRunner runner = new TestingRunner();
        try (MrcEngine engine = new MrcEngine(
                ModelBundle.load(RelabelledBundle.withGate(dir, 0.5, true)), List.of("chemical", "disease"))) {
            CompletableFuture<Extraction> x =
                    engine.extract(List.of("Lithium toxicity.", "Cocaine. Heroin."), Segmentation.SENTENCES, runner);
            assertThat(runner.calls)
                    .singleElement()
                    .satisfies(w -> assertThat(w).hasSize(3).allMatch(MrcWindow::isGate));
            runner.futures
                    .get(0)
                    .complete(presence(
                            new float[] {YES, YES, NO, NO}, // "Lithium toxicity."
                            new float[] {YES, NO, YES, NO}, // "Cocaine." (gene is not asked for)
                            new float[] {NO, NO, NO, YES})); // "Heroin."
            assertThat(runner.calls).hasSize(2);
            List<MrcWindow> asked = runner.calls.get(1);
            assertThat(asked).extracting(MrcWindow::typeIndex).containsExactly(0, 1, 0);
            assertThat(asked).noneMatch(MrcWindow::isGate);
            assertThat(x).isNotDone();
            runner.futures.get(1).complete(nothingFound(asked));
            Extraction done = x.join();
            assertThat(done.skippedPasses()).isEqualTo(3);
            assertThat(done.windows())
                    .as("the gate's passes and the asked ones")
                    .hasSize(6);
            assertThat(done.sentences()).containsExactly(1, 2);
        }
    }

    @Test
    void cancellingBetweenTheTwoPassesWithdrawsTheSecond(@TempDir Path dir) throws Exception {
        TestingRunner runner = new TestingRunner();
        try (MrcEngine engine = new MrcEngine(ModelBundle.load(RelabelledBundle.withGate(dir, 0.5, true)), List.of())) {
            CompletableFuture<Extraction> x = engine.extract(List.of("Lithium."), Segmentation.SENTENCES, runner);
            runner.futures.get(0).complete(presence(new float[] {YES, YES, YES, YES}));
            x.cancel(false);
            assertThat(runner.futures.get(1)).isCancelled();
        }
    }

    @Test
    void aGateTheBundleMeasuredAsTooCostlyStaysOffUnlessAskedFor(@TempDir Path dir) throws Exception {
        ModelBundle costly = ModelBundle.load(RelabelledBundle.withGate(dir, 0.5, false));
        for (GateSetting setting : List.of(GateSetting.BUNDLE, GateSetting.ON)) {
            TestingRunner runner = new TestingRunner();
            try (MrcEngine engine = new MrcEngine(costly, List.of(), setting)) {
                engine.extract(List.of("Lithium."), Segmentation.SENTENCES, runner);
                assertThat(runner.calls.get(0))
                        .as(setting.toString())
                        .allMatch(w -> w.isGate() == (setting == GateSetting.ON));
            }
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
