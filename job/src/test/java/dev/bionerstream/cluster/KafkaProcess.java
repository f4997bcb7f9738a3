package dev.bionerstream.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
    private int adminPort;
    private Process process;

    private KafkaProcess(Path dir, Path properties, int port) {
        this.dir = dir;
        this.properties = properties;
        this.port = port;
    }

    static KafkaProcess format(Path dir) throws IOException, InterruptedException {
        int port = FlinkProcesses.freePort();
        return format(
                dir,
                port,
                List.of(
                        "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:%CONTROLLER%",
                        "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
                        "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                        "inter.broker.listener.name=PLAINTEXT"),
                List.of());
    }

    /**
     * A broker secured as production's: clients connect over SASL_SSL (TLS with {@code certs}, SCRAM-SHA-512
     * for the {@code users} given, name to password) and the standard authorizer allows only what ACLs
     * grant; the test itself administers it over a PLAINTEXT listener on loopback ({@link #adminBootstrap}),
     * whose anonymous principal is the super user.
     */
    static KafkaProcess formatSecured(Path dir, TestCertificates certs, Map<String, String> users)
            throws IOException, InterruptedException {
        int port = FlinkProcesses.freePort();
        int admin = FlinkProcesses.freePort();
        List<String> scram = new ArrayList<>();
        users.forEach((name, password) -> {
            scram.add("--add-scram");
            scram.add("SCRAM-SHA-512=[name=" + name + ",password=" + password + "]");
        });
        KafkaProcess broker = format(
                dir,
                port,
                List.of(
                        "listeners=SASL_SSL://127.0.0.1:" + port + ",ADMIN://127.0.0.1:" + admin
                                + ",CONTROLLER://127.0.0.1:%CONTROLLER%",
                        "advertised.listeners=SASL_SSL://127.0.0.1:" + port + ",ADMIN://127.0.0.1:" + admin,
                        "listener.security.protocol.map=SASL_SSL:SASL_SSL,ADMIN:PLAINTEXT,CONTROLLER:PLAINTEXT",
                        "inter.broker.listener.name=ADMIN",
                        "sasl.enabled.mechanisms=SCRAM-SHA-512",
                        "listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config="
                                + "org.apache.kafka.common.security.scram.ScramLoginModule required;",
                        "ssl.keystore.type=PKCS12",
                        "ssl.keystore.location=" + certs.serverKeystore(),
                        "ssl.keystore.password=" + certs.password(),
                        "ssl.key.password=" + certs.password(),
                        "authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer",
                        "super.users=User:ANONYMOUS",
                        "allow.everyone.if.no.acl.found=false"),
                scram);
        broker.adminPort = admin;
        return broker;
    }

    private static KafkaProcess format(Path dir, int port, List<String> listeners, List<String> formatArgs)
            throws IOException, InterruptedException {
        Files.createDirectories(dir);
        int controller = FlinkProcesses.freePort();
        Path properties = dir.resolve("server.properties");
        List<String> lines = new ArrayList<>(List.of(
                "process.roles=broker,controller",
                "node.id=1",
                "controller.quorum.voters=1@127.0.0.1:" + controller,
                "controller.listener.names=CONTROLLER",
                "log.dirs=" + dir.resolve("data"),
                "offsets.topic.replication.factor=1",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "group.initial.rebalance.delay.ms=0",
                "auto.create.topics.enable=false"));
        listeners.forEach(l -> lines.add(l.replace("%CONTROLLER%", String.valueOf(controller))));
        Files.writeString(properties, String.join("\n", lines) + "\n");
        List<String> format =
                new ArrayList<>(List.of("format", "-t", Uuid.randomUuid().toString(), "-c", properties.toString()));
        format.addAll(formatArgs);
        Process formatting = java(dir.resolve("format.log"), "kafka.tools.StorageTool", format.toArray(String[]::new));
        if (!formatting.waitFor(2, TimeUnit.MINUTES) || formatting.exitValue() != 0) {
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

    /** The PLAINTEXT listener of a secured broker ({@link #formatSecured}), where the test is super user. */
    String adminBootstrap() {
        return "127.0.0.1:" + adminPort;
    }

    /** The broker's log, for a failure's message. */
    String log() throws IOException {
        Path log = dir.resolve("broker.log");
        return Files.exists(log) ? Files.readString(log) : "(no broker.log)";
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
            FlinkProcesses.stop(process);
        }
    }
}
