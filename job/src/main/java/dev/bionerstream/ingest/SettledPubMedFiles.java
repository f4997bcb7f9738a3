package dev.bionerstream.ingest;

import dev.bionerstream.pubmed.PubMedDirectory;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.function.Predicate;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;

/**
 * Which paths of the watched directory to read: sub-directories, and {@code .xml} / {@code
 * .xml.gz} files not hidden ({@code .} or {@code _} first, as downloads in progress are) and
 * unchanged for at least {@code minAge}. A file still being copied keeps changing, so it is left
 * for a later scan instead of being read half-written.
 */
final class SettledPubMedFiles implements Predicate<Path>, Serializable {
    private static final long serialVersionUID = 1L;

    private final long minAgeMillis;

    SettledPubMedFiles(Duration minAge) {
        this.minAgeMillis = minAge.toMillis();
    }

    @Override
    public boolean test(Path path) {
        String name = path.getName();
        if (name.startsWith(".") || name.startsWith("_")) {
            return false;
        }
        FileStatus status;
        try {
            status = path.getFileSystem().getFileStatus(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the status of " + path, e);
        }
        if (status.isDir()) {
            return true;
        }
        return PubMedDirectory.isPubMedFile(name)
                && System.currentTimeMillis() - status.getModificationTime() >= minAgeMillis;
    }
}
