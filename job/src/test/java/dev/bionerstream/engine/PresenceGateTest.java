package dev.bionerstream.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bionerstream.model.BundleGate;
import dev.bionerstream.model.BundleManifest;
import dev.bionerstream.model.EntityQuery;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which gate a presence gate setting gives on a bundle, and what it lets through. */
class PresenceGateTest {
    static BundleManifest manifest(BundleGate gate) {
        return new BundleManifest(
                1,
                "m",
                "1",
                256,
                true,
                "enc",
                List.of(new EntityQuery("chemical", "q")),
                null,
                Map.of(),
                null,
                gate,
                null,
                null,
                null);
    }

    static final BundleManifest NO_GATE = manifest(null);
    static final BundleManifest MEASURED_OK = manifest(new BundleGate("presence_logits", 0.1, true, 0.15, 41.0));
    static final BundleManifest MEASURED_COSTLY = manifest(new BundleGate("presence_logits", 0.05, false, 0.6, 30.0));

    @Test
    void byDefaultTheGateIsOnOnlyWhereTheBundlesMeasurementAllowsIt() {
        assertThat(PresenceGate.resolve(NO_GATE, GateSetting.BUNDLE)).isEmpty();
        assertThat(PresenceGate.resolve(MEASURED_OK, GateSetting.BUNDLE)).contains(new PresenceGate(0.1));
        assertThat(PresenceGate.resolve(MEASURED_COSTLY, GateSetting.BUNDLE)).isEmpty();
    }

    @Test
    void aUserCanTurnItOnOffOrChooseTheThreshold() {
        assertThat(PresenceGate.resolve(MEASURED_COSTLY, GateSetting.ON)).contains(new PresenceGate(0.05));
        assertThat(PresenceGate.resolve(MEASURED_OK, GateSetting.OFF)).isEmpty();
        assertThat(PresenceGate.resolve(MEASURED_COSTLY, GateSetting.threshold(0.02)))
                .contains(new PresenceGate(0.02));
        assertThat(PresenceGate.resolve(NO_GATE, GateSetting.OFF)).isEmpty();
    }

    @Test
    void theSettingIsParsedOnceInAnyCaseAndSpacing() {
        assertThat(GateSetting.parse("bundle")).isEqualTo(GateSetting.BUNDLE);
        assertThat(GateSetting.parse("On")).isEqualTo(GateSetting.ON);
        assertThat(GateSetting.parse(" OFF ")).isEqualTo(GateSetting.OFF);
        assertThat(GateSetting.parse("0.02")).isEqualTo(GateSetting.threshold(0.02));
        assertThat(GateSetting.parse("0.02")).hasToString("0.02");
        assertThat(GateSetting.parse("on")).hasToString("on");
    }

    @Test
    void askingForAGateTheBundleLacksOrABadSettingIsAnErrorThatSaysWhy() {
        assertThatThrownBy(() -> PresenceGate.resolve(NO_GATE, GateSetting.ON))
                .isInstanceOfSatisfying(RefusedSettingException.class, e -> {
                    assertThat(e.setting()).isEqualTo(RefusedSettingException.Setting.GATE);
                    assertThat(e.detail()).startsWith("on: the bundle m:1 has no presence gate");
                })
                .hasMessageStartingWith("presence gate on: the bundle m:1 has no presence gate")
                .hasMessageContaining("model-export's --gate");
        assertThatThrownBy(() -> PresenceGate.resolve(NO_GATE, GateSetting.threshold(0.2)))
                .hasMessageContaining("0.2: the bundle m:1 has no presence gate");
        for (String bad : List.of("yes", "1.5", "0", "-0.1", "", "NaN")) {
            assertThatThrownBy(() -> GateSetting.parse(bad))
                    .as(bad)
                    .isInstanceOfSatisfying(RefusedSettingException.class, e -> assertThat(e.detail())
                            .isEqualTo("must be bundle, on, off or a threshold between 0 and 1, got " + bad));
        }
        assertThatThrownBy(() -> GateSetting.threshold(1)).hasMessageContaining("between 0 and 1");
    }

    @Test
    void aTypeIsAskedWhenItsPresenceProbabilityReachesTheThreshold() {
        PresenceGate gate = new PresenceGate(0.2);
        float atThreshold = (float) Math.log(0.2 / 0.8);
        assertThat(gate.asks(atThreshold + 1e-4f)).isTrue();
        assertThat(gate.asks(atThreshold - 1e-3f)).isFalse();
        assertThat(gate.asks(3f)).isTrue();
    }
}
