package dev.bionerstream.options;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.ingest.IngestOptions;
import dev.bionerstream.job.JobOptions;
import dev.bionerstream.job.LinkOptions;
import dev.bionerstream.kafka.KafkaOptions;
import dev.bionerstream.serving.ServingOptions;
import dev.bionerstream.sink.opensearch.OpenSearchSinkOptions;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.configuration.ConfigOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An options class's {@code ALL} is written by hand and is what a job accepts, what its help lists and
 * what the docs' tables show: every option the class declares must be in it, so an option added to a
 * class and not to its {@code ALL} fails here instead of being refused as unknown.
 */
class OptionListsTest {
    /** Every class of the code that declares a public static {@link ConfigOption}. */
    private static final List<Class<?>> OPTION_CLASSES = declaringOptions();

    /**
     * Read from the directory of the main classes with reflection: an ArchUnit import of the code (the
     * classes it uses resolved from the classpath) took half a minute of the unit tests.
     */
    private static List<Class<?>> declaringOptions() {
        try {
            Path root = Path.of(JobOptions.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            try (Stream<Path> files = Files.walk(root.resolve("dev").resolve("bionerstream"))) {
                List<Class<?>> found = new ArrayList<>();
                for (Path f : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                    String name = root.relativize(f).toString().replace(File.separatorChar, '.');
                    Class<?> c = Class.forName(
                            name.substring(0, name.length() - ".class".length()),
                            false,
                            OptionListsTest.class.getClassLoader());
                    if (Arrays.stream(c.getDeclaredFields())
                            .anyMatch(x -> Modifier.isPublic(x.getModifiers())
                                    && Modifier.isStatic(x.getModifiers())
                                    && x.getType() == ConfigOption.class)) {
                        found.add(c);
                    }
                }
                return found;
            }
        } catch (IOException | URISyntaxException | ClassNotFoundException e) {
            throw new IllegalStateException("reading the main classes: " + e, e);
        }
    }

    static List<Class<?>> optionClasses() {
        return OPTION_CLASSES;
    }

    @Test
    void theOptionClassesAreFound() {
        assertThat(optionClasses())
                .contains(
                        KafkaOptions.class,
                        JobOptions.class,
                        ServingOptions.class,
                        LinkOptions.class,
                        IngestOptions.class,
                        OpenSearchSinkOptions.class);
    }

    @SuppressWarnings("unchecked")
    @ParameterizedTest(name = "{0}")
    @MethodSource("optionClasses")
    void allHoldsEveryOptionTheClassDeclares(Class<?> options) throws ReflectiveOperationException {
        List<Object> declared = new ArrayList<>();
        for (Field f : options.getDeclaredFields()) {
            int m = f.getModifiers();
            if (Modifier.isPublic(m) && Modifier.isStatic(m) && f.getType() == ConfigOption.class) {
                declared.add(f.get(null));
            }
        }
        Field all = options.getField("ALL");
        assertThat((List<Object>) all.get(null))
                .as("%s.ALL: add each option the class declares, and only those", options.getSimpleName())
                .containsExactlyInAnyOrderElementsOf(declared);
    }
}
