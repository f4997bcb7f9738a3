package dev.bionerstream.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A certificate authority and a server certificate it signed for 127.0.0.1 and localhost, made with
 * the JDK's keytool for one test run: the server's PKCS12 keystore, and the CA's certificate in PEM
 * for the clients' truststore (as the manifests pass Strimzi's CA: {@code ssl.truststore.type=PEM}).
 */
record TestCertificates(Path serverKeystore, String password, String caPem) {
    static TestCertificates make(Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        String password = "test-only-" + Long.toHexString(System.nanoTime());
        Path ca = dir.resolve("ca.p12");
        Path server = dir.resolve("server.p12");
        Path caPem = dir.resolve("ca.pem");
        Path csr = dir.resolve("server.csr");
        Path serverPem = dir.resolve("server.pem");
        String ext = "-ext";
        keytool(dir, "-genkeypair", ca, "ca", password, "-keyalg", "RSA", "-dname", "CN=bioner test CA", ext, "bc:c");
        keytool(dir, "-exportcert", ca, "ca", password, "-rfc", "-file", caPem);
        keytool(dir, "-genkeypair", server, "server", password, "-keyalg", "RSA", "-dname", "CN=localhost");
        keytool(dir, "-certreq", server, "server", password, "-file", csr);
        keytool(
                dir,
                "-gencert",
                ca,
                "ca",
                password,
                "-rfc",
                "-infile",
                csr,
                "-outfile",
                serverPem,
                ext,
                "SAN=IP:127.0.0.1,DNS:localhost");
        keytool(dir, "-importcert", server, "ca", password, "-noprompt", "-file", caPem);
        keytool(dir, "-importcert", server, "server", password, "-file", serverPem);
        return new TestCertificates(server, password, Files.readString(caPem));
    }

    /** {@code keytool COMMAND} on the PKCS12 {@code store}'s entry {@code alias}, valid for a week, with {@code more}. */
    private static void keytool(Path dir, String command, Path store, String alias, String password, Object... more)
            throws IOException, InterruptedException {
        List<Object> args = new ArrayList<>(
                List.of(command, "-alias", alias, "-keystore", store, "-storetype", "PKCS12", "-storepass", password));
        if (command.equals("-genkeypair") || command.equals("-gencert")) {
            args.addAll(List.of("-validity", "7"));
        }
        args.addAll(List.of(more));
        keytool(dir, args.toArray());
    }

    private static void keytool(Path dir, Object... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        for (Object a : args) {
            command.add(a.toString());
        }
        Path log = dir.resolve("keytool.log");
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        if (!p.waitFor(2, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new IllegalStateException("keytool " + args[0] + " failed: " + Files.readString(log));
        }
    }
}
