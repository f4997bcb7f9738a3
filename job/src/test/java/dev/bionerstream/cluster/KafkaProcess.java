package dev.bionerstream.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.Uuid;

/**
 * A single-node KRaft Kafka broker (combined broker and controller) as its own JVM ({@code
 * kafka.Kafka server.properties}, storage formatted by {@code kafka.tools.StorageTool}), from the
 * Kafka jars on this classpath, so that it can be killed with SIGKILL and started again on the same
 * ports and data.
 */
final class KafkaProcess implements AutoCloseable {
    private final Path dir;
    private final Path properties;
    private final int port;
    private Process process;

    private KafkaProcess(Path dir, Path properties, int port) {
        this.dir = dir;
        this.properties = properties;
        this.port = port;
    }

    static KafkaProcess format(Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        int port = FlinkProcesses.freePort();
        int controller = FlinkProcesses.freePort();
        Path properties = dir.resolve("server.properties");
        Files.writeString(
                properties,
                String.join(
                        "\n",
                        "process.roles=broker,controller",
                        "node.id=1",
                        "controller.quorum.voters=1@127.0.0.1:" + controller,
                        "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controller,
                        "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
                        "controller.listener.names=CONTROLLER",
                        "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                        "inter.broker.listener.name=PLAINTEXT",
                        "log.dirs=" + dir.resolve("data"),
                        "offsets.topic.replication.factor=1",
                        "transaction.state.log.replication.factor=1",
                        "transaction.state.log.min.isr=1",
                        "group.initial.rebalance.delay.ms=0",
                        "auto.create.topics.enable=false",
                        ""));
        Process format = java(
                dir.resolve("format.log"),
                "kafka.tools.StorageTool",
                "format",
                "-t",
                Uuid.randomUuid().toString(),
                "-c",
                properties.toString());
        if (!format.waitFor(2, TimeUnit.MINUTES) || format.exitValue() != 0) {
            throw new IllegalStateException(
                    "kafka-storage format failed: " + Files.readString(dir.resolve("format.log")));
        }
        return new KafkaProcess(dir, properties, port);
    }

    /** Starts the broker (again, after a kill: same ports, same data). */
    void start() throws IOException {
        process = java(dir.resolve("broker.log"), "kafka.Kafka", properties.toString());
    }

    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    private static Process java(Path log, String mainClass, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-cp",
                System.getProperty("java.class.path"),
                mainClass));
        command.addAll(List.of(args));
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null) {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }
}
