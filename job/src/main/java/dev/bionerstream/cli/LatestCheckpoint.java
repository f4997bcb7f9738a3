package dev.bionerstream.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The newest completed checkpoint under a checkpoint directory laid out as Flink writes it
 * ({@code <dir>/<job-id>/chk-<n>/_metadata}): a checkpoint without {@code _metadata} was still
 * being written when the process died and cannot be restored.
 */
final class LatestCheckpoint {
    private LatestCheckpoint() {}

    static Optional<Path> in(Path dir) {
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        try (Stream<Path> jobs = Files.list(dir)) {
            return jobs.filter(Files::isDirectory)
                    .flatMap(LatestCheckpoint::completed)
                    .max(Comparator.comparing(LatestCheckpoint::metadataTime));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list checkpoints in " + dir, e);
        }
    }

    private static Stream<Path> completed(Path jobDir) {
        try (Stream<Path> chks = Files.list(jobDir)) {
            return chks
                    .filter(p -> p.getFileName().toString().startsWith("chk-")
                            && Files.isRegularFile(p.resolve("_metadata")))
                    .toList()
                    .stream();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list checkpoints in " + jobDir, e);
        }
    }

    private static long metadataTime(Path chk) {
        try {
            return Files.getLastModifiedTime(chk.resolve("_metadata")).toMillis();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
