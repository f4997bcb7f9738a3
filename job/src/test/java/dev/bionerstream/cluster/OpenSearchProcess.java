package dev.bionerstream.cluster;

import dev.bionerstream.tls.PemTrust;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;

/**
 * A single OpenSearch 2.19 node as its own JVM ({@link OpenSearchNodeMain}), so that it can be killed
 * with SIGKILL and started again on the same port and data, or run with OpenSearch's security plugin
 * (TLS on HTTP and transport, basic auth against its internal users, roles), as production clusters
 * do. The plugin is the one Maven Central serves for this OpenSearch, resolved and unpacked by the
 * build into {@code target/} (the pre-integration-test phase) and checked against
 * the SHA-256 the build pins ({@link SecurityPluginZip}).
 */
final class OpenSearchProcess implements AutoCloseable {
    private static final Duration START = Duration.ofMinutes(4);

    private final Path base;
    private final int port;
    private final boolean secured;
    private final HttpClient http;
    private final String admin;
    private Process process;

    private OpenSearchProcess(Path base, int port, HttpClient http, String admin) {
        this.base = base;
        this.port = port;
        this.secured = admin != null;
        this.http = http;
        this.admin = admin;
    }

    /** A node without security, over plain HTTP. */
    static OpenSearchProcess plain(Path base) throws IOException {
        Files.createDirectories(config(base));
        Files.writeString(config(base).resolve("opensearch.yml"), "");
        return new OpenSearchProcess(base, FlinkProcesses.freePort(), HttpClient.newHttpClient(), null);
    }

    /**
     * A node with the security plugin: HTTPS and transport TLS with {@code certs}' server certificate,
     * the internal {@code users} (name to password), the {@code roles} file (the plugin's roles.yml) and
     * {@code mapping} of role to its users; user {@code admin} is mapped to {@code all_access}, which may also
     * use the security REST API (to change a password, as a rotation does).
     */
    static OpenSearchProcess secured(
            Path base,
            TestCertificates certs,
            Map<String, String> users,
            String roles,
            Map<String, List<String>> mapping)
            throws IOException {
        Path config = config(base);
        Path security = config.resolve("opensearch-security");
        Files.createDirectories(security);
        Files.copy(certs.serverKeystore(), config.resolve("node.p12"));
        List<String> yml = new ArrayList<>();
        for (String layer : List.of("transport", "http")) {
            yml.add("plugins.security.ssl." + layer + ".keystore_type: PKCS12");
            yml.add("plugins.security.ssl." + layer + ".keystore_filepath: node.p12");
            yml.add("plugins.security.ssl." + layer + ".keystore_password: " + certs.password());
            yml.add("plugins.security.ssl." + layer + ".truststore_type: PKCS12");
            yml.add("plugins.security.ssl." + layer + ".truststore_filepath: node.p12");
            yml.add("plugins.security.ssl." + layer + ".truststore_password: " + certs.password());
        }
        yml.addAll(List.of(
                "plugins.security.ssl.http.enabled: true",
                "plugins.security.ssl.transport.enforce_hostname_verification: false",
                "plugins.security.allow_default_init_securityindex: true",
                "plugins.security.authcz.admin_dn: [\"CN=bioner test admin\"]",
                "plugins.security.nodes_dn: [\"CN=localhost\"]",
                "plugins.security.audit.type: noop",
                "plugins.security.restapi.roles_enabled: [\"all_access\"]"));
        Files.writeString(config.resolve("opensearch.yml"), String.join("\n", yml) + "\n");
        String adminPassword = "Admin-" + Long.toHexString(new SecureRandom().nextLong()) + "-x9";
        StringBuilder internal = new StringBuilder(meta("internalusers"));
        users.forEach((name, password) -> internal.append(user(name, password)));
        internal.append(user("admin", adminPassword));
        StringBuilder roleMapping = new StringBuilder(meta("rolesmapping"));
        roleMapping.append("all_access:\n  users: [\"admin\"]\n");
        mapping.forEach((role, members) -> roleMapping
                .append(role)
                .append(":\n  users: [\"")
                .append(String.join("\", \"", members))
                .append("\"]\n"));
        Files.writeString(security.resolve("internal_users.yml"), internal);
        Files.writeString(security.resolve("roles_mapping.yml"), roleMapping);
        Files.writeString(security.resolve("roles.yml"), roles);
        Files.writeString(
                security.resolve("config.yml"),
                meta("config")
                        + """
                        config:
                          dynamic:
                            http: {anonymous_auth_enabled: false}
                            authc:
                              basic_internal_auth_domain:
                                http_enabled: true
                                transport_enabled: true
                                order: 0
                                http_authenticator: {type: basic, challenge: true}
                                authentication_backend: {type: intern}
                        """);
        for (String[] file : new String[][] {
            {"action_groups", "actiongroups"}, {"tenants", "tenants"}, {"nodes_dn", "nodesdn"}, {"audit", "audit"}
        }) {
            Files.writeString(security.resolve(file[0] + ".yml"), meta(file[1]));
        }
        Files.writeString(security.resolve("allowlist.yml"), meta("allowlist") + "config: {enabled: false}\n");
        HttpClient http = HttpClient.newBuilder()
                .sslContext(PemTrust.sslContext(certs.caPem(), "the test CA"))
                .build();
        return new OpenSearchProcess(base, FlinkProcesses.freePort(), http, "admin:" + adminPassword);
    }

    private static Path config(Path base) {
        return base.resolve("node_1").resolve("config");
    }

    private static String meta(String type) {
        return "_meta: {type: \"" + type + "\", config_version: 2}\n";
    }

    private static String user(String name, String password) {
        byte[] salt = new byte[16];
        new SecureRandom().nextBytes(salt);
        return name + ":\n  hash: \"" + OpenBSDBCrypt.generate("2y", password.toCharArray(), salt, 10) + "\"\n";
    }

    /** Starts the node (again, after a kill: same port, same data) and waits until it answers. */
    OpenSearchProcess start() throws IOException, InterruptedException {
        Path classpath = base.resolve("classpath.txt");
        Files.writeString(classpath, System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx768m",
                "-cp",
                testClasses(),
                OpenSearchNodeMain.class.getName(),
                classpath.toString(),
                base.toString(),
                String.valueOf(port)));
        if (secured) {
            command.add(SecurityPluginZip.checked(Path.of("target"))
                    .toAbsolutePath()
                    .toString());
        }
        process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        base.resolve("node.log").toFile()))
                .start();
        awaitAnswer();
        return this;
    }

    private static String testClasses() {
        try {
            return new File(OpenSearchNodeMain.class
                            .getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI())
                    .getPath();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Cluster health answers 200 (for a secured node: once the security index is initialised). */
    private void awaitAnswer() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + START.toNanos();
        int status = 0;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("OpenSearch exited with " + process.exitValue() + ":\n" + logTail());
            }
            status = request("GET", "/_cluster/health?wait_for_status=yellow&timeout=5s", null)
                    .status();
            if (status == 200) {
                return;
            }
            Thread.sleep(1000);
        }
        throw new IllegalStateException(
                "OpenSearch did not answer 200 within " + START + " (last status " + status + "):\n" + logTail());
    }

    /** An HTTP status and body; status 0 when nothing answered. */
    record Answer(int status, String body) {}

    /** A request as the node's administrator. */
    Answer request(String method, String path, String json) throws InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url() + path))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .method(
                        method,
                        json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (secured) {
            request.header(
                    "Authorization",
                    "Basic " + Base64.getEncoder().encodeToString(admin.getBytes(StandardCharsets.UTF_8)));
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response.body());
        } catch (IOException e) {
            return new Answer(0, e.toString());
        }
    }

    String url() {
        return (secured ? "https" : "http") + "://127.0.0.1:" + port;
    }

    /** The job's arguments that index into {@code index} on this node. */
    List<String> jobArgs(String index) {
        return List.of("--opensearch.hosts", url(), "--opensearch.index", index);
    }

    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    /** The end of the node's log, for a failure's message. */
    String logTail() throws IOException {
        Path log = base.resolve("node.log");
        if (!Files.exists(log)) {
            return "(no node.log)";
        }
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null) {
            FlinkProcesses.stop(process);
        }
    }
}
