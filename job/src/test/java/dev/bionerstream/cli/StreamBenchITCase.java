package dev.bionerstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code ./bioner bench --stream} as the README runs it, on the tiny random bundle and six sample
 * abstracts: the real topology with its embedded broker, a warm-up pass, the measured pass and the
 * breakdown. The figures themselves are the bench's business; here every line a user reads is
 * printed, and the measured pass took the model's time.
 */
class StreamBenchITCase {
    @Test
    void printsTheWarmUpTheRatioAndWhereTheStreamsTimeWent() throws Exception {
        Path tiny = Path.of(
                StreamBenchITCase.class.getResource("/bundles/tiny-gated").toURI());

        RunCommandTest.Result r =
                RunCommandTest.run("bench", "--stream", "--limit", "6", "--bundle", tiny.toString(), "--runners", "2");

        assertThat(r.exit()).as("exit status; stderr:%n%s", r.err()).isZero();
        assertThat(r.out())
                .contains("6 texts", "runners 2")
                .containsPattern("streaming job    : +[0-9.]+ sequences/s")
                .containsPattern("warm-up pass  : +[0-9.]+ sequences/s")
                .containsPattern("job / bare       : +[0-9.]+")
                .contains("model (ORT session run)", "embedded Kafka broker", "JIT compiler");
    }
}
