package dev.bionerstream.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class OfferedRateTest {
    @Test
    void aShareOfCapacityOrAFixedRate() {
        assertThat(OfferedRate.parse("50%").perSecond(5.2)).isEqualTo(2.6);
        assertThat(OfferedRate.parse(" 90% ").perSecond(10)).isEqualTo(9.0);
        assertThat(OfferedRate.parse("4.5").perSecond(100)).isEqualTo(4.5);
        assertThat(OfferedRate.parse("50%")).hasToString("50% of capacity");
        assertThat(OfferedRate.parse("2.50")).hasToString("2.5/s");
    }

    @Test
    void refusesWhatIsNoPositiveRate() {
        assertThatThrownBy(() -> OfferedRate.parse("fast"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(
                        "--rate takes abstracts per second (4.5) or a share of the measured capacity (50%)");
        assertThatThrownBy(() -> OfferedRate.parse("0%")).hasMessageContaining("positive");
        assertThatThrownBy(() -> OfferedRate.parse("-3")).hasMessageContaining("positive");
    }
}
