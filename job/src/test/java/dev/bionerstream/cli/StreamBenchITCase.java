package dev.bionerstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.model.TestBundles;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code ./bioner bench --stream --rate --index} as the README runs it, on the tiny random bundle
 * and six sample abstracts: the real topology with its embedded broker and OpenSearch node, a
 * warm-up pass, the measured pass, the breakdown, then steady streams at half the measured rate and at 3 texts/s.
 * The figures themselves are the bench's business; here every line a user reads is printed, the
 * measured pass took the model's time, every latency record's document was seen by each
 * reader (n of n), and the slowest documents' time is split at the job's result.
 */
class StreamBenchITCase {
    @Test
    void printsTheWarmUpTheRatioAndWhereTheStreamsTimeWent() throws Exception {
        Path tiny = TestBundles.path("tiny-gated");

        RunCommandTest.Result r = RunCommandTest.run(
                "bench",
                "--stream",
                "--limit",
                "6",
                "--bundle",
                tiny.toString(),
                "--runners",
                "2",
                "--rate",
                "50%,3",
                "--latency-seconds",
                "5",
                "--index");

        assertThat(r.exit()).as("exit status; stderr:%n%s", r.err()).isZero();
        assertThat(r.out())
                .contains("6 texts", "runners 2")
                .containsPattern("streaming job    : +[0-9.]+ sequences/s")
                .containsPattern("warm-up pass  : +[0-9.]+ sequences/s")
                .containsPattern("job / bare       : +[0-9.]+")
                .contains("model (ORT session run)", "embedded Kafka broker", "JIT compiler")
                .containsPattern("steady state  : +[0-9.]+")
                .containsPattern(
                        "latency: [0-9.]+ texts/s offered \\(50% of capacity; the measured pass ran [0-9.]+ texts/s in its steady state\\) for 5 s, "
                                + "[0-9]+ texts, kafka.delivery-guarantee exactly-once, checkpoints every 2 s")
                .containsPattern("latency: 3.00 texts/s offered \\(3/s; .* for 5 s, 15 texts")
                .containsPattern(
                        "visible to read_committed consumer +: p50 +[0-9.]+ s, p95 +[0-9.]+ s, p99 +[0-9.]+ s, "
                                + "max +[0-9.]+ s \\((\\d+) of \\1\\)")
                .containsPattern("visible to any consumer \\(read_uncommitted\\) *: p50 .* \\((\\d+) of \\1\\)")
                .containsPattern("visible to OpenSearch search +: p50 .* \\((\\d+) of \\1\\)")
                .containsPattern("the 3 slowest to any consumer \\(read_uncommitted\\): latency = until the job had")
                .containsPattern(
                        "latency-1-\\d+ +[0-9.]+ s = +[0-9.]+ s \\+ +[0-9.]+ s, \\d+ sentences, \\d+ characters")
                .contains("mean of all 15 ")
                .as("a reader that missed documents of a latency run")
                .doesNotContainPattern("\\((\\d+) of (?!\\1\\))\\d+\\)");
    }
}
