package dev.bionerstream.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LinkingAccuracyTest {
    @Test
    void countsTheTopIdAgainstTheGoldIdsCompositesWhole() {
        LinkingAccuracy a = new LinkingAccuracy();
        assertThat(a.add("chemical", Set.of("mesh:D1"), false, List.of("mesh:D1"), false))
                .isTrue();
        assertThat(a.add("chemical", Set.of("mesh:D1"), false, List.of("mesh:D2"), true))
                .isFalse();
        assertThat(a.add("chemical", Set.of("mesh:D1"), false, List.of(), true))
                .as("no candidate")
                .isFalse();
        // alternatives: one name, several gold ids, any of them; the top candidate counts whatever its score
        assertThat(a.add("chemical", Set.of("mesh:C1", "mesh:D3"), false, List.of("mesh:D3"), true))
                .isTrue();
        // composite: a coordinated mention must get all its ids, and no others
        assertThat(a.add("disease", Set.of("mesh:D4", "mesh:D5"), true, List.of("mesh:D5", "mesh:D4"), false))
                .isTrue();
        assertThat(a.add("disease", Set.of("mesh:D4", "mesh:D5"), true, List.of("mesh:D4"), false))
                .isFalse();
        assertThat(a.add("disease", Set.of(), false, List.of("mesh:D4"), false))
                .as("no gold id: skipped")
                .isTrue();

        assertThat(a.get("chemical")).isEqualTo(new LinkingAccuracy.Counts(4, 2, 3, 0));
        assertThat(a.get("chemical").accuracy()).isEqualTo(0.5);
        assertThat(a.get("disease")).isEqualTo(new LinkingAccuracy.Counts(2, 1, 0, 1));
        assertThat(a.table()).contains("chemical", "0.5000", "disease", "under-min");
    }
}
