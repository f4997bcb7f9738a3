package dev.bionerstream.options;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.bionerstream.ingest.IngestOptions;
import dev.bionerstream.job.JobOptions;
import dev.bionerstream.job.LinkOptions;
import dev.bionerstream.kafka.KafkaOptions;
import dev.bionerstream.serving.ServingOptions;
import dev.bionerstream.sink.opensearch.OpenSearchSinkOptions;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
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
    private static final List<Class<?>> OPTION_CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.bionerstream").stream()
                    .filter(c -> c.getFields().stream()
                            .anyMatch(
                                    f -> f.getModifiers().containsAll(List.of(JavaModifier.PUBLIC, JavaModifier.STATIC))
                                            && f.getRawType().isEquivalentTo(ConfigOption.class)))
                    .map(JavaClass::reflect)
                    .toList();

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
