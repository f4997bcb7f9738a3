package dev.bionerstream.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * The newest completed checkpoint under a checkpoint directory laid out as Flink writes it
 * ({@code <dir>/<job-id>/chk-<n>/_metadata}), on any file system Flink reaches (a local or mounted
 * directory, S3): a checkpoint without {@code _metadata} was still being written when its job ended
 * and cannot be restored. {@code ./bioner run} resumes from it, and so does a job submitted with
 * {@code job.resume-from-checkpoint}.
 */
public final class LatestCheckpoint {
    private static final String METADATA = "_metadata";

    private LatestCheckpoint() {}

    /** The newest completed checkpoint in the local directory {@code dir}, if any. */
    public static Optional<java.nio.file.Path> in(java.nio.file.Path dir) {
        return in(new Path(dir.toUri())).map(chk -> java.nio.file.Path.of(chk.toUri()));
    }

    /** The newest completed checkpoint in {@code dir}, if any. */
    public static Optional<Path> in(Path dir) {
        try {
            FileSystem fs = dir.getFileSystem();
            if (!fs.exists(dir)) {
                return Optional.empty();
            }
            List<FileStatus> completed = new ArrayList<>();
            for (FileStatus job : list(fs, dir)) {
                if (!job.isDir()) {
                    continue;
                }
                for (FileStatus chk : list(fs, job.getPath())) {
                    Path metadata = new Path(chk.getPath(), METADATA);
                    if (chk.isDir() && chk.getPath().getName().startsWith("chk-") && fs.exists(metadata)) {
                        completed.add(fs.getFileStatus(metadata));
                    }
                }
            }
            return completed.stream()
                    .max(Comparator.comparingLong(FileStatus::getModificationTime))
                    .map(metadata -> metadata.getPath().getParent());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the checkpoints in " + dir, e);
        }
    }

    private static List<FileStatus> list(FileSystem fs, Path dir) throws IOException {
        FileStatus[] all = fs.listStatus(dir);
        return all == null ? List.of() : List.of(all);
    }
}
