package dev.bionerstream.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.demo.RunsBesideOthers;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code scripts/build}, the build ./bioner runs on first use, with the real Maven on the PATH (its
 * validate phase, offline): a line per module and per goal as it goes, errors in full, Maven's exit
 * code, and never an escape code in a pipe (Debian's Maven 3.8 writes ESC[0m even in batch mode).
 */
@RunsBesideOthers
class BuildScriptITCase {
    private static final String ESCAPE = "\u001b";

    @Test
    void showsEachModuleAndGoalWithoutEscapeCodes() throws Exception {
        RepositoryScript build = RepositoryScript.run(Map.of(), "scripts/build", "-o", "validate");
        assertThat(build.exitCode()).as(build.output()).isZero();
        assertThat(build.output().lines())
                .as(build.output())
                .contains("[1/3] bioner-stream", "[2/3] bioner-stream Flink lib/", "[3/3] bioner-stream job")
                .anyMatch(l -> l.matches(" +maven-enforcer-plugin:[^ ]+:enforce \\(enforce-versions\\)"))
                .contains("[INFO] BUILD SUCCESS")
                .noneMatch(l -> l.startsWith("[INFO] Scanning"));
        assertThat(build.output()).doesNotContain(ESCAPE);
    }

    @Test
    void aFailedBuildShowsMavensErrorsAndFails() throws Exception {
        RepositoryScript build =
                RepositoryScript.run(Map.of(), "scripts/build", "-o", "validate", "-pl", "no-such-module");
        assertThat(build.exitCode()).as(build.output()).isNotZero();
        assertThat(build.output())
                .contains("[ERROR] Could not find the selected project in the reactor: no-such-module")
                .doesNotContain(ESCAPE);
    }
}
