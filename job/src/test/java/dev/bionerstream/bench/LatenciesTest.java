package dev.bionerstream.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class LatenciesTest {
    @Test
    void nearestRankPercentilesAreMeasuredValues() {
        // 1..200 ms, shuffled: p50 is the 100th value, p95 the 190th, p99 the 198th.
        List<Long> millis =
                new ArrayList<>(LongStream.rangeClosed(1, 200).boxed().toList());
        Collections.shuffle(millis, new Random(7));
        assertThat(Latencies.of(millis)).isEqualTo(new Latencies(200, 100, 190, 198, 200));
    }

    @Test
    void oneValueIsEveryPercentile() {
        assertThat(Latencies.of(List.of(1234L)).line(3))
                .isEqualTo("p50  1.23 s, p95  1.23 s, p99  1.23 s, max  1.23 s (1 of 3)");
    }

    @Test
    void nothingSeenIsNoLatency() {
        assertThat(Latencies.of(List.of())).isEqualTo(new Latencies(0, 0, 0, 0, 0));
    }
}
