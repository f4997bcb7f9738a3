package dev.bionerstream.cli;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;

/** Settings of the Flink cluster the command line starts in its own process. */
final class LocalCluster {
    private LocalCluster() {}

    /** Dashboard/REST on {@code port} (0: any free port); every endpoint serves this machine only. */
    static Configuration configuration(int port) {
        Configuration c = new Configuration();
        c.set(RestOptions.PORT, port);
        c.set(RestOptions.BIND_ADDRESS, "localhost");
        c.set(RestOptions.ADDRESS, "localhost");
        c.set(JobManagerOptions.BIND_HOST, "localhost");
        c.set(JobManagerOptions.ADDRESS, "localhost");
        c.set(TaskManagerOptions.BIND_HOST, "localhost");
        c.set(TaskManagerOptions.HOST, "localhost");
        return c;
    }
}
