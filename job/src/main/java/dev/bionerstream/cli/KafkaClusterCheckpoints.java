package dev.bionerstream.cli;

import dev.bionerstream.kafka.LatestCheckpoint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * A local checkpoint directory belongs to the Kafka cluster its checkpoints were taken against: the
 * source offsets in them mean nothing on another cluster (a longer topic there would be skipped up to
 * them). The cluster's id is kept beside the checkpoints in {@value #MARKER}; {@link #resumePoint}
 * refuses checkpoints of another cluster, or of an unknown one, with a message saying what to delete.
 */
final class KafkaClusterCheckpoints {
    static final String MARKER = "kafka-cluster-id";

    private KafkaClusterCheckpoints() {}

    /** The id of the Kafka cluster behind {@code bootstrapServers}, asked of the cluster itself. */
    static String clusterId(String bootstrapServers, Properties clientProperties) {
        Properties p = new Properties();
        p.putAll(clientProperties);
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        try (Admin admin = Admin.create(p)) {
            return admin.describeCluster().clusterId().get(2, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking " + bootstrapServers + " for its cluster id", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(
                    "cannot ask the Kafka cluster at " + bootstrapServers + " for its id (needed to tell whether the"
                            + " local checkpoints are its own): " + e.getMessage(),
                    e);
        }
    }

    /**
     * The newest completed checkpoint in {@code dir} when they were taken against {@code clusterId};
     * empty when there is none; an {@link IllegalStateException} naming the directory to delete when
     * they belong to another cluster or to an unrecorded one.
     */
    static Optional<Path> resumePoint(Path dir, String clusterId, String bootstrapServers) {
        Optional<Path> latest = LatestCheckpoint.in(dir);
        if (latest.isEmpty()) {
            return latest;
        }
        Path marker = dir.resolve(MARKER);
        String owner = read(marker);
        if (owner == null) {
            throw new IllegalStateException("the checkpoints in " + dir + " do not say which Kafka cluster they were"
                    + " taken against (they are older than " + MARKER + "), and their offsets are wrong on any other."
                    + " If they are of the cluster at " + bootstrapServers + ", write its id " + clusterId + " into "
                    + marker + "; otherwise delete " + dir + " (or pass another --job.checkpoint-dir or"
                    + " --kafka.group-id) to start afresh");
        }
        if (!owner.equals(clusterId)) {
            throw new IllegalStateException("the checkpoints in " + dir + " were taken against Kafka cluster " + owner
                    + ", but " + bootstrapServers + " is cluster " + clusterId + ": their offsets mean nothing there."
                    + " Delete " + dir + " to start afresh against this cluster, or pass another --job.checkpoint-dir"
                    + " or --kafka.group-id to keep them");
        }
        return latest;
    }

    /** Records that the checkpoints written to {@code dir} from now on are of {@code clusterId}. */
    static void claim(Path dir, String clusterId) {
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(MARKER), clusterId + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dir.resolve(MARKER), e);
        }
    }

    private static String read(Path marker) {
        try {
            return Files.exists(marker) ? Files.readString(marker).strip() : null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + marker, e);
        }
    }
}
