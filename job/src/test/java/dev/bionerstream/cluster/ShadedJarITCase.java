package dev.bionerstream.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.cli.Main;
import dev.bionerstream.demo.RunsBesideOthers;
import dev.bionerstream.job.BionerJob;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The shaded job jar (after {@code mvn package}) keeps what its dependencies ship beside their
 * classes, merged instead of first-jar-wins: one NOTICE with every bundled project's notice, every
 * licence text, the job's own manifest (the command line for {@code java -jar}, the job for Flink), and
 * no module descriptors of the jars it was made from.
 * ClusterITCase runs this jar on a cluster.
 */
@RunsBesideOthers
class ShadedJarITCase {
    @Test
    void keepsEveryDependencysNoticeAndLicenceAndItsOwnManifest() throws IOException {
        try (JarFile jar = new JarFile(ClusterSetup.jobJar().toFile())) {
            assertThat(text(jar, "META-INF/NOTICE"))
                    .as("notices of Flink's Kafka connector, Jackson and Apache Commons IO, merged")
                    .contains("Flink : Connectors : Kafka")
                    .contains("Jackson JSON processor")
                    .contains("Apache Commons IO");
            assertThat(text(jar, "META-INF/LICENSE.md"))
                    .as("the Eclipse licence of jakarta.json and parsson, beside the others")
                    .contains("Eclipse Public License - v 2.0");
            assertThat(text(jar, "META-INF/LICENSE")).contains("Apache License");
            assertThat(jar.getManifest().getMainAttributes().getValue("Main-Class"))
                    .isEqualTo(Main.class.getName());
            assertThat(jar.getManifest().getMainAttributes().getValue("program-class"))
                    .as("what Flink runs when no entry class is given (flink run, the dashboard)")
                    .isEqualTo(BionerJob.class.getName());
            assertThat(Collections.list(jar.entries()).stream()
                            .map(JarEntry::getName)
                            .filter(n -> n.endsWith("module-info.class")))
                    .as("module descriptors: the jar is loaded from the classpath, never as a module")
                    .isEmpty();
        }
    }

    private static String text(JarFile jar, String name) throws IOException {
        JarEntry entry = jar.getJarEntry(name);
        assertThat(entry).as(name + " in " + jar.getName()).isNotNull();
        return new String(jar.getInputStream(entry).readAllBytes(), StandardCharsets.UTF_8);
    }
}
