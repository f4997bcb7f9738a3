package dev.bionerstream.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A command's own folder in the system's temporary directory, for the files of the libraries it
 * runs in its process, deleted when the command ends, on Ctrl-C too.
 */
final class TemporaryFiles implements AutoCloseable {
    final Path dir;

    private TemporaryFiles(Path dir) {
        this.dir = dir;
    }

    static TemporaryFiles create(String prefix) throws IOException {
        return new TemporaryFiles(Files.createTempDirectory(prefix));
    }

    /** Deletes the folder with what the libraries left in it, and ONNX Runtime's libraries. */
    @Override
    public void close() throws IOException {
        delete(dir);
        deleteOnnxRuntimeLibraries();
    }

    /**
     * ONNX Runtime extracts its native libraries to a folder {@code onnxruntime-java*} of the
     * system's temporary directory (java.io.tmpdir; no setting moves it) and marks the folder and
     * its files for deletion at exit in an order that leaves the folder behind, empty. This
     * process's memory map names the folder it loaded them from: a folder of another process is
     * never touched. (On a system without /proc the empty folder stays.)
     */
    static void deleteOnnxRuntimeLibraries() throws IOException {
        Path maps = Path.of("/proc/self/maps");
        if (!Files.isReadable(maps)) {
            return;
        }
        Path tmp = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath();
        List<Path> extracted;
        try (Stream<String> lines = Files.lines(maps)) {
            extracted = lines.map(l -> l.indexOf('/') < 0 ? null : Path.of(l.substring(l.indexOf('/'))))
                    .filter(p -> p != null && p.getParent() != null)
                    .map(Path::getParent)
                    .filter(d -> tmp.equals(d.getParent())
                            && d.getFileName().toString().startsWith("onnxruntime-java"))
                    .distinct()
                    .toList();
        }
        for (Path d : extracted) {
            delete(d);
        }
    }

    private static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> {
                try {
                    Files.deleteIfExists(f);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
