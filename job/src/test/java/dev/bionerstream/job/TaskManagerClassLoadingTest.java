package dev.bionerstream.job;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URL;
import java.net.URLClassLoader;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

class TaskManagerClassLoadingTest {
    @Test
    void avroFromAParentOfTheJobsLoaderIsRefusedWithTheFix() throws Exception {
        // A user-code class loader as a TaskManager makes one, under the loader that holds lib/ (here: the tests').
        try (URLClassLoader job = new URLClassLoader(new URL[0], Schema.class.getClassLoader())) {
            assertThatThrownBy(() -> TaskManagerClassLoading.check(job, Schema.class))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("loads org.apache.avro parent-first")
                    .hasMessageContaining("./bin/jobmanager.sh start -D classloader.parent-first-patterns.additional=");
        }
    }

    @Test
    void oneLoaderForTheJobAndItsLibrariesIsFine() {
        // A MiniCluster, the demo, or a TaskManager loading Avro child-first from the job jar.
        assertThatCode(() -> TaskManagerClassLoading.requireLibrariesFromTheJobJar(ParseAbstracts.class))
                .doesNotThrowAnyException();
    }
}
