package dev.bionerstream.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.demo.RunsBesideOthers;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/soak-cluster} runs ClusterSoak alone through Maven, whose lines reach its output
 * without escape codes, and whose exit code is its own.
 */
@RunsBesideOthers
class SoakScriptITCase {
    @TempDir
    Path dir;

    @Test
    void runsTheSoakAloneAndPassesMavensLinesOnWithoutEscapeCodes() throws Exception {
        Path bin = dir.resolve("bin");
        StandInMaven.writeInto(bin);
        RepositoryScript soak = RepositoryScript.run(
                Map.of("PATH", bin + ":" + System.getenv("PATH")), "scripts/soak-cluster", "5", "-Dsoak.kills=false");
        assertThat(soak.exitCode()).as(soak.output()).isEqualTo(StandInMaven.EXIT_CODE);
        assertThat(soak.output().lines())
                .as(soak.output())
                .containsExactly(
                        "arguments: -B -Dstyle.color=never -ntp verify -pl job -am -Dit.test=ClusterSoak"
                                + " -Dsoak.minutes=5 -Dtest=NoSuchTest -Dsurefire.failIfNoSpecifiedTests=false"
                                + " -Dspotless.check.skip=true -Dsoak.kills=false",
                        StandInMaven.LINES[0],
                        StandInMaven.LINES[1]);
    }
}
