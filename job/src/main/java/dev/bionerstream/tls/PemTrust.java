package dev.bionerstream.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A TLS context that trusts the certificate authorities given in PEM, as clusters with their own CA
 * hand them out (the {@code ca.crt} of an operator's or cert-manager's Secret), so that no JVM-wide
 * trust store has to be built and mounted for one service. The PEM comes inline (an environment
 * variable filled from the Secret, as Kafka's {@code ssl.truststore.certificates} takes it) or as
 * the path of a file.
 */
public final class PemTrust {
    private static final String PEM_BEGIN = "-----BEGIN";

    private PemTrust() {}

    /**
     * Trusts exactly the certificates in {@code pem} (the certificates themselves, or a file's path);
     * a message names {@code setting} and what to give when they cannot be read.
     */
    public static SSLContext sslContext(String pem, String setting) {
        Collection<? extends Certificate> certificates;
        boolean inline = pem.strip().startsWith(PEM_BEGIN);
        String source = inline ? "the PEM given" : "'" + pem + "'";
        try (InputStream in = inline
                ? new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII))
                : Files.newInputStream(Path.of(pem.strip()))) {
            certificates = CertificateFactory.getInstance("X.509").generateCertificates(in);
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            throw new IllegalArgumentException(
                    setting + ": " + source + " is not readable as PEM CA certificates (" + e
                            + "); give the cluster CA's certificate (its ca.crt), inline or as a file path.",
                    e);
        }
        if (certificates.isEmpty()) {
            throw new IllegalArgumentException(setting + ": " + source + " holds no certificate; give the cluster "
                    + "CA's certificate (its ca.crt), inline or as a file path.");
        }
        try {
            KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
            trusted.load(null, null);
            int i = 0;
            for (Certificate certificate : certificates) {
                trusted.setCertificateEntry("ca-" + i++, certificate);
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trusted);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("Could not build a TLS context from " + setting, e);
        }
    }
}
