package dev.bionerstream.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PemTrustTest {
    @TempDir
    static Path dir;

    private static Path pemFile;

    /** A CA certificate in PEM, made by the JDK's keytool. */
    @BeforeAll
    static void makeCertificate() throws Exception {
        pemFile = dir.resolve("ca.pem");
        keytool("-genkeypair", "-alias", "ca", "-keyalg", "RSA", "-dname", "CN=pem trust test", "-validity", "2");
        keytool("-exportcert", "-alias", "ca", "-rfc", "-file", pemFile.toString());
    }

    private static void keytool(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-keystore",
                dir.resolve("ca.p12").toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                "test-only"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(1, TimeUnit.MINUTES) && p.exitValue() == 0).as(out).isTrue();
    }

    @Test
    void takesTheCertificateInlineOrFromAFile() throws Exception {
        SSLContext inline = PemTrust.sslContext(Files.readString(pemFile), "opensearch.tls.ca");
        SSLContext file = PemTrust.sslContext(pemFile.toString(), "opensearch.tls.ca");
        assertThat(inline.getProtocol()).isEqualTo("TLS");
        assertThat(file.getProtocol()).isEqualTo("TLS");
    }

    @Test
    void aMissingFileOrTextThatIsNoCertificateNamesTheSettingAndWhatToGive() {
        assertThatThrownBy(() -> PemTrust.sslContext(dir.resolve("nowhere.crt").toString(), "opensearch.tls.ca"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("opensearch.tls.ca")
                .hasMessageContaining("nowhere.crt")
                .hasMessageContaining("ca.crt");
        assertThatThrownBy(() -> PemTrust.sslContext(
                        "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n",
                        "OPENSEARCH_CA_CERT"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("OPENSEARCH_CA_CERT: the PEM given is not readable");
    }
}
