package dev.bionerstream.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.demo.RunsBesideOthers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/test}, the README's test command, picks a Python that can run model-export's tests
 * where the first {@code python3} on the PATH cannot (as a pyenv Python without torch), and says
 * what to install when the Python it is given cannot. {@code --check} installs and runs nothing.
 * The stand-in without torch is Debian's own Python without its site packages ({@code -S}). Maven's
 * lines reach its output without escape codes, and a failed Maven fails it.
 */
@RunsBesideOthers
class TestScriptITCase {
    private static final String DEBIAN_PYTHON = "/usr/bin/python3";

    @TempDir
    Path dir;

    @Test
    void picksDebiansPythonWhenThePathsHasNoTorch() throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path bare = bareDebianPython(bin.resolve("python3"));
        RepositoryScript check =
                RepositoryScript.run(Map.of("PATH", bin + ":" + System.getenv("PATH")), "scripts/test", "--check");
        assertThat(check.exitCode()).as(check.output()).isZero();
        assertThat(check.output())
                .contains("model-export's tests run with " + DEBIAN_PYTHON)
                .doesNotContain(bare.toString());
    }

    @Test
    void saysWhatToInstallWhenThePythonItIsGivenLacksTorch() throws Exception {
        Path bare = bareDebianPython(dir.resolve("python3"));
        RepositoryScript check = RepositoryScript.run(Map.of("PYTHON", bare.toString()), "scripts/test", "--check");
        assertThat(check.exitCode()).as(check.output()).isOne();
        assertThat(check.output())
                .contains("PYTHON=" + bare + " cannot import all of: torch onnx pytest jsonschema")
                .contains("apt-get install --no-install-recommends python3-torch python3-onnx python3-pytest"
                        + " python3-jsonschema")
                .contains("pip install torch onnx pytest jsonschema");
    }

    @Test
    void passesMavensLinesOnWithoutEscapeCodesAndStopsWhenMavenFails() throws Exception {
        RepositoryScript check = RepositoryScript.run(Map.of(), "scripts/test", "--check");
        assertThat(check.exitCode())
                .as("scripts/test --check (what the tests need is installed, as .ci/run installs it, so the run below "
                        + "installs nothing): " + check.output())
                .isZero();
        Path bin = dir.resolve("bin");
        StandInMaven.writeInto(bin);
        RepositoryScript test = RepositoryScript.run(Map.of("PATH", bin + ":" + System.getenv("PATH")), "scripts/test");
        assertThat(test.exitCode()).as(test.output()).isEqualTo(StandInMaven.EXIT_CODE);
        // pytest must not run after a failed Maven
        assertThat(test.output().lines())
                .as(test.output())
                .containsExactly(
                        "arguments: -B -Dstyle.color=never -ntp verify", StandInMaven.LINES[0], StandInMaven.LINES[1]);
    }

    /** A real Python that lacks torch, onnx, pytest and jsonschema: Debian's, without site packages. */
    private static Path bareDebianPython(Path at) throws Exception {
        Files.writeString(at, "#!/bin/sh\nexec " + DEBIAN_PYTHON + " -S \"$@\"\n");
        Files.setPosixFilePermissions(at, PosixFilePermissions.fromString("rwxr-xr-x"));
        return at;
    }
}
