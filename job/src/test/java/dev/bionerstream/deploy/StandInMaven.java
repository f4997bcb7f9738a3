package dev.bionerstream.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * An {@code mvn} that writes as Debian's Maven 3.8 does even in batch mode (escape codes around its
 * lines, on stdout and stderr), names the arguments it was given, then fails with exit code 3: a
 * script's Maven lines must reach its output without escape codes, and its exit code be Maven's.
 */
final class StandInMaven {
    /** The lines a script passes on from it, after the arguments line. */
    static final String[] LINES = {"[INFO] Scanning for projects...", "[ERROR] Tests run: 1, Failures: 1"};

    static final int EXIT_CODE = 3;

    private StandInMaven() {}

    /** Writes it as {@code bin/mvn}; put {@code bin} first on the PATH. */
    static void writeInto(Path bin) throws IOException {
        Path mvn = Files.createDirectories(bin).resolve("mvn");
        Files.writeString(
                mvn,
                "#!/bin/sh\n"
                        + "echo \"arguments: $*\"\n"
                        + "printf '\\033[0m\\033[0m[INFO] Scanning for projects...\\n'\n"
                        + "printf '\\033[1;31m[ERROR]\\033[m Tests run: 1, Failures: 1\\n' >&2\n"
                        + "exit " + EXIT_CODE + "\n");
        Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
