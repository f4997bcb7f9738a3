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
        keytool(
                dir,
                "-genkeypair",
                "-alias",
                "ca",
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-dname",
                "CN=bioner test CA",
                "-ext",
                "bc:c",
                "-validity",
                "7",
                "-keystore",
                ca,
                "-storetype",
                "PKCS12",
                "-storepass",
                password);
        keytool(
                dir,
                "-exportcert",
                "-rfc",
                "-alias",
                "ca",
                "-keystore",
                ca,
                "-storepass",
                password,
                "-file",
                dir.resolve("ca.pem"));
        keytool(
                dir,
                "-genkeypair",
                "-alias",
                "server",
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-dname",
                "CN=localhost",
                "-validity",
                "7",
                "-keystore",
                server,
                "-storetype",
                "PKCS12",
                "-storepass",
                password);
        keytool(
                dir,
                "-certreq",
                "-alias",
                "server",
                "-keystore",
                server,
                "-storepass",
                password,
                "-file",
                dir.resolve("server.csr"));
        keytool(
                dir,
                "-gencert",
                "-rfc",
                "-alias",
                "ca",
                "-keystore",
                ca,
                "-storepass",
                password,
                "-infile",
                dir.resolve("server.csr"),
                "-outfile",
                dir.resolve("server.pem"),
                "-ext",
                "SAN=IP:127.0.0.1,DNS:localhost",
                "-validity",
                "7");
        keytool(
                dir,
                "-importcert",
                "-noprompt",
                "-alias",
                "ca",
                "-file",
                dir.resolve("ca.pem"),
                "-keystore",
                server,
                "-storepass",
                password);
        keytool(
                dir,
                "-importcert",
                "-alias",
                "server",
                "-file",
                dir.resolve("server.pem"),
                "-keystore",
                server,
                "-storepass",
                password);
        return new TestCertificates(server, password, Files.readString(dir.resolve("ca.pem")));
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
