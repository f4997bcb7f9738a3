package dev.bionerstream.demo;

import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.util.TestStreamEnvironment;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A Flink MiniCluster for one test class, whose environments it hands out itself ({@link
 * #environment}) instead of through Flink's JVM-wide context environment, which MiniClusterExtension
 * sets for the whole JVM and which makes {@code createLocalEnvironment} refuse: a test that runs
 * beside the others ({@link RunsBesideOthers}) neither sends its jobs to another test's cluster nor
 * has another test's jobs, or local environments, refused or misplaced. Register it with
 * {@code @RegisterExtension static final}.
 */
public final class OwnMiniCluster implements BeforeAllCallback, AfterAllCallback {
    private final MiniClusterConfiguration setup;
    private MiniCluster cluster;

    /** One TaskManager of {@code slots} slots, with {@code configuration} (a metric reporter, say). */
    public OwnMiniCluster(int slots, Configuration configuration) {
        Configuration conf = new Configuration(configuration);
        conf.set(RestOptions.BIND_PORT, "0"); // not the 8081 of another cluster running beside it
        setup = new MiniClusterConfiguration.Builder()
                .setConfiguration(conf)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(slots)
                .build();
    }

    public OwnMiniCluster(int slots) {
        this(slots, new Configuration());
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        cluster = new MiniCluster(setup);
        cluster.start();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** An environment whose jobs run on this cluster, with {@code job} (a restart strategy, say). */
    public StreamExecutionEnvironment environment(Configuration job, int parallelism) {
        return new TestStreamEnvironment(cluster, job, parallelism, List.of(), List.of());
    }
}
