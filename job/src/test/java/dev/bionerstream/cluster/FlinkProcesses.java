package dev.bionerstream.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessSpec;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessUtils;
import org.apache.flink.runtime.jobmanager.JobManagerProcessSpec;
import org.apache.flink.runtime.jobmanager.JobManagerProcessUtils;
import org.apache.flink.runtime.util.config.memory.ProcessMemoryUtils;

/**
 * A Flink standalone session cluster as separate JVM processes, started the way Flink's scripts
 * start them: a JobManager ({@code StandaloneSessionClusterEntrypoint}) and TaskManagers
 * ({@code TaskManagerRunner}), with the memory flags Flink's {@code BashJavaUtils} computes from
 * the configuration, the JVM options of Flink's default configuration, and a classpath of the jars
 * the image's {@code lib/} holds. Always close it.
 */
final class FlinkProcesses implements AutoCloseable {
    /** The {@code env.java.default-opts.all} of Flink 2.2's default configuration (the image's). */
    static final List<String> DEFAULT_JVM_OPTS = List.of(
            "--add-exports=java.base/sun.net.util=ALL-UNNAMED",
            "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED",
            "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
            "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.net=ALL-UNNAMED",
            "--add-opens=java.base/java.io=ALL-UNNAMED",
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens=java.base/java.text=ALL-UNNAMED",
            "--add-opens=java.base/java.time=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED");

    private final Path dir;
    private final String classpath;
    private final Map<String, String> conf;
    private final List<String> taskManagerJavaOpts;
    private final int restPort;
    private final Map<String, Process> processes = new LinkedHashMap<>();

    private FlinkProcesses(Path dir, String classpath, Map<String, String> conf, List<String> taskManagerJavaOpts) {
        this.dir = dir;
        this.classpath = classpath;
        this.conf = conf;
        this.taskManagerJavaOpts = taskManagerJavaOpts;
        this.restPort = Integer.parseInt(conf.get("rest.port"));
    }

    /**
     * Starts the JobManager with {@code settings} plus the local addresses and ports of this host;
     * TaskManagers start with {@link #startTaskManager}.
     */
    static FlinkProcesses startJobManager(
            Path dir,
            String classpath,
            Map<String, String> settings,
            Map<String, String> jobManagerOnly,
            List<String> taskManagerJavaOpts)
            throws IOException {
        Map<String, String> conf = new LinkedHashMap<>(settings);
        conf.put("jobmanager.rpc.address", "127.0.0.1");
        conf.put("jobmanager.bind-host", "127.0.0.1");
        conf.put("jobmanager.rpc.port", String.valueOf(freePort()));
        conf.put("rest.address", "127.0.0.1");
        conf.put("rest.bind-address", "127.0.0.1");
        conf.put("rest.port", String.valueOf(freePort()));
        conf.put("taskmanager.host", "127.0.0.1");
        conf.put("taskmanager.bind-host", "127.0.0.1");
        conf.put(
                "web.upload.dir",
                Files.createDirectories(dir.resolve("web-upload")).toString());
        FlinkProcesses cluster = new FlinkProcesses(dir, classpath, conf, taskManagerJavaOpts);
        Path confDir = cluster.writeConfig("jobmanager", jobManagerOnly);
        Configuration c = Configuration.fromMap(conf);
        JobManagerProcessSpec spec = JobManagerProcessUtils.processSpecFromConfig(c);
        List<String> jvm = new ArrayList<>(split(JobManagerProcessUtils.generateJvmParametersStr(spec, c)));
        List<String> args = new ArrayList<>(List.of("--configDir", confDir.toString()));
        args.addAll(split(JobManagerProcessUtils.generateDynamicConfigsStr(spec)));
        cluster.start(
                "jobmanager", jvm, "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint", args);
        return cluster;
    }

    /** Starts a TaskManager whose resource id (its id in the REST API) is {@code id}. */
    void startTaskManager(String id) throws IOException {
        Path confDir = writeConfig(id, Map.of());
        Configuration c = Configuration.fromMap(conf);
        TaskExecutorProcessSpec spec = TaskExecutorProcessUtils.processSpecFromConfig(c);
        List<String> jvm = new ArrayList<>(split(ProcessMemoryUtils.generateJvmParametersStr(spec)));
        jvm.addAll(taskManagerJavaOpts);
        // -Dbioner.cluster.tm-jvm-opts: more TaskManager JVM options for a look (-XX:NativeMemoryTracking=summary).
        jvm.addAll(split(System.getProperty("bioner.cluster.tm-jvm-opts", "")));
        List<String> args = new ArrayList<>(List.of("--configDir", confDir.toString()));
        args.addAll(split(TaskExecutorProcessUtils.generateDynamicConfigsStr(spec)));
        args.addAll(List.of("-D", "taskmanager.resource-id=" + id));
        start(id, jvm, "org.apache.flink.runtime.taskexecutor.TaskManagerRunner", args);
    }

    private void start(String name, List<String> jvm, String mainClass, List<String> args) throws IOException {
        Path log = dir.resolve(name + ".log");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvm);
        command.addAll(DEFAULT_JVM_OPTS);
        command.add("-Dlog.file=" + log);
        command.add("-Dlog4j.configurationFile=" + dir.resolve(name + "-conf").resolve("log4j.properties"));
        command.add("-Djava.io.tmpdir=" + Files.createDirectories(dir.resolve(name + "-tmp")));
        command.addAll(List.of("-cp", classpath, mainClass));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".out").toFile());
        builder.environment().put("LD_PRELOAD", jemalloc().toString());
        processes.put(name, builder.start());
    }

    /**
     * The allocator the official Flink image runs its JVMs on (its docker-entrypoint.sh preloads
     * jemalloc unless DISABLE_JEMALLOC): with glibc's malloc, the native memory of each closed ONNX
     * Runtime session stays in per-thread arenas, and a TaskManager's RSS creeps up with every
     * resubmission without anything leaking.
     */
    static Path jemalloc() {
        try (Stream<Path> dirs = Files.list(Path.of("/usr/lib"))) {
            return dirs.map(d -> d.resolve("libjemalloc.so.2"))
                    .filter(Files::isRegularFile)
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("libjemalloc.so.2 not found under /usr/lib/*:"
                            + " install Debian's libjemalloc2 (.ci/run does); the Flink image runs its JVMs on it"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The process's config.yaml and log4j.properties: the cluster's settings, then {@code own}. */
    private Path writeConfig(String name, Map<String, String> own) throws IOException {
        Path confDir = Files.createDirectories(dir.resolve(name + "-conf"));
        Map<String, String> c = new LinkedHashMap<>(conf);
        c.putAll(own);
        c.put("io.tmp.dirs", Files.createDirectories(dir.resolve(name + "-io")).toString());
        StringBuilder yaml = new StringBuilder();
        c.forEach((k, v) ->
                yaml.append(k).append(": '").append(v.replace("'", "''")).append("'\n"));
        Files.writeString(confDir.resolve("config.yaml"), yaml);
        // -Dbioner.cluster.debug-loggers=a.b,c.d: DEBUG for these loggers (the sinks' transactions, for one).
        StringBuilder debug = new StringBuilder();
        int n = 0;
        for (String logger :
                split(System.getProperty("bioner.cluster.debug-loggers", "").replace(',', ' '))) {
            debug.append(String.format("logger.debug%d.name = %s%nlogger.debug%d.level = DEBUG%n", n, logger, n));
            n++;
        }
        Files.writeString(
                confDir.resolve("log4j.properties"),
                String.join(
                        "\n",
                        "rootLogger.level = INFO",
                        "rootLogger.appenderRef.file.ref = file",
                        "appender.file.type = File",
                        "appender.file.name = file",
                        "appender.file.fileName = ${sys:log.file}",
                        "appender.file.layout.type = PatternLayout",
                        "appender.file.layout.pattern = %d{HH:mm:ss,SSS} %-5p %c{1} - %m%n",
                        "logger.metrics.name = org.apache.flink.metrics",
                        "logger.metrics.level = ERROR",
                        "logger.kafka.name = org.apache.kafka",
                        "logger.kafka.level = WARN",
                        debug.toString()));
        return confDir;
    }

    String restUrl() {
        return "http://127.0.0.1:" + restPort;
    }

    /** The configuration the processes run with (compose's settings plus this host's addresses). */
    Map<String, String> configuration() {
        return conf;
    }

    /** The processes started so far, by name, in start order. */
    List<String> names() {
        return List.copyOf(processes.keySet());
    }

    Process process(String name) {
        Process p = processes.get(name);
        if (p == null) {
            throw new IllegalArgumentException("no process " + name + " in " + processes.keySet());
        }
        return p;
    }

    /**
     * SIGSTOP, then SIGCONT after {@code pause}: the process stands still as in a long GC pause or on a
     * starved CPU, with its connections and open Kafka transactions as they were.
     */
    void freeze(String name, java.time.Duration pause) throws IOException, InterruptedException {
        String pid = String.valueOf(process(name).pid());
        signal("-STOP", pid);
        try {
            Thread.sleep(pause.toMillis());
        } finally {
            signal("-CONT", pid);
        }
    }

    private static void signal(String signal, String pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", signal, pid).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IOException("kill " + signal + " " + pid + " failed");
        }
    }

    /** SIGKILL, as {@code kill -9}: no shutdown hook, no goodbye to the JobManager. */
    void kill(String name) throws InterruptedException {
        process(name).destroyForcibly().waitFor();
    }

    /** The last lines of a process's log and of its standard output. */
    String tail(String name, int lines) {
        return tailOf(dir.resolve(name + ".log"), lines) + tailOf(dir.resolve(name + ".out"), 10);
    }

    String log(String name) {
        try {
            Path log = dir.resolve(name + ".log");
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String tailOf(Path file, int lines) {
        try {
            if (!Files.exists(file)) {
                return "(no " + file.getFileName() + ")\n";
            }
            List<String> all = Files.readAllLines(file);
            return "--- " + file.getFileName() + " (last " + lines + " lines)\n"
                    + String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size())) + "\n";
        } catch (IOException e) {
            return "(" + file + ": " + e + ")\n";
        }
    }

    @Override
    public void close() throws InterruptedException {
        List<Map.Entry<String, Process>> reversed = new ArrayList<>(processes.entrySet());
        java.util.Collections.reverse(reversed);
        for (Map.Entry<String, Process> e : reversed) {
            e.getValue().destroy();
        }
        for (Map.Entry<String, Process> e : reversed) {
            if (!e.getValue().waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
                e.getValue().destroyForcibly().waitFor();
            }
        }
    }

    private static List<String> split(String s) {
        return Arrays.stream(s.trim().split("\\s+")).filter(x -> !x.isEmpty()).toList();
    }

    /** SIGTERM, then SIGKILL if {@code process} has not ended 30 s later. */
    static void stop(Process process) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
