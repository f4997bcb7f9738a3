package dev.bionerstream.job;

import dev.bionerstream.batching.BatchStats;
import dev.bionerstream.serving.BundleChoice;
import dev.bionerstream.serving.ModelRoutes;
import dev.bionerstream.serving.ServingConfig;
import dev.bionerstream.serving.SessionFactory;
import dev.bionerstream.serving.SharedModels;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;

/**
 * What each model of a job ran on the JVM's shared batchers: the models of {@code options} are
 * leased before the job starts, as one more subtask would, and a {@link BatchStats} listens to each
 * batcher; the job's operators then lease the same models.
 */
final class ListenedBatches implements AutoCloseable {
    private final Map<ServingConfig, BatchStats> stats = new LinkedHashMap<>();
    private final List<AutoCloseable> open = new ArrayList<>();

    ListenedBatches(Configuration options) throws Exception {
        try {
            for (ServingConfig model :
                    ModelRoutes.from(options, BundleChoice.NO_INSTALLATION).all()) {
                SharedModels.Lease lease = SharedModels.jvm().acquire(model, SessionFactory.ONNX_RUNTIME);
                open.add(lease);
                BatchStats s = new BatchStats();
                open.add(lease.batcher().listen(s));
                stats.put(model, s);
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    BatchStats.Counts of(ServingConfig model) {
        return stats.get(model).snapshot();
    }

    @Override
    public void close() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }
}
