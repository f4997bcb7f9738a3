package dev.bionerstream.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bionerstream.features.MrcWindow;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class BatchQueueTest {
    static final long MS = 1_000_000L;

    static MrcWindow window(int length) {
        return new MrcWindow(0, 0, length - 3, 0, length - 3, new long[length], new long[length]);
    }

    @Test
    void closesABatchAtMaxSizeAndSortsItByLength() {
        BatchQueue q = new BatchQueue(3, Duration.ofSeconds(10));
        q.add(window(9), 0);
        q.add(window(5), 0);
        assertThat(q.nanosUntilDue(0)).isPositive();
        assertThat(q.poll(0, false)).isEmpty();
        q.add(window(7), 0);
        q.add(window(6), 0);
        assertThat(q.nanosUntilDue(0)).isZero();
        assertThat(q.poll(0, false)).extracting(p -> p.window().length()).containsExactly(5, 7, 9);
        assertThat(q.size()).isEqualTo(1);
    }

    @Test
    void closesABatchWhenTheOldestHasWaitedMaxWait() {
        BatchQueue q = new BatchQueue(32, Duration.ofMillis(20));
        q.add(window(8), 100 * MS);
        q.add(window(8), 115 * MS);
        assertThat(q.nanosUntilDue(110 * MS)).isEqualTo(10 * MS);
        assertThat(q.poll(119 * MS, false)).isEmpty();
        assertThat(q.poll(120 * MS, false)).hasSize(2);
        assertThat(q.nanosUntilDue(120 * MS)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void forcedPollDrainsAtEndOfInput() {
        BatchQueue q = new BatchQueue(2, Duration.ofHours(1));
        q.add(window(4), 0);
        q.add(window(4), 0);
        q.add(window(4), 0);
        assertThat(q.poll(0, true)).hasSize(2);
        assertThat(q.poll(0, true)).hasSize(1);
        assertThat(q.poll(0, true)).isEmpty();
    }

    @Test
    void rejectsNonsenseSettings() {
        assertThatThrownBy(() -> new BatchQueue(0, Duration.ZERO)).hasMessageContaining("max size");
        assertThatThrownBy(() -> new BatchQueue(1, Duration.ofMillis(-1))).hasMessageContaining("max wait");
    }
}
