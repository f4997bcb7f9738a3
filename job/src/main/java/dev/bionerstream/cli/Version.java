package dev.bionerstream.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine;

/** {@code ./bioner --version}: the project version Maven wrote into the build, so it never goes stale. */
final class Version implements CommandLine.IVersionProvider {
    static final String RESOURCE = "/bioner-stream-version.properties";

    static String number() {
        try (InputStream in = Version.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is not on the classpath: build with Maven");
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String[] getVersion() {
        return new String[] {"bioner-stream " + number()};
    }
}
