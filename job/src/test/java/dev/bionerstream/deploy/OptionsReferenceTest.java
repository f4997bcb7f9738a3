package dev.bionerstream.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.ingest.IngestOptions;
import dev.bionerstream.job.JobOptions;
import dev.bionerstream.job.LinkOptions;
import dev.bionerstream.kafka.KafkaOptions;
import dev.bionerstream.options.OptionsReference;
import dev.bionerstream.serving.ServingOptions;
import dev.bionerstream.sink.opensearch.OpenSearchSinkOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.configuration.ConfigOption;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The option tables in the docs are the options' own text: a description or default changed in
 * the code and not in the docs (or the reverse) fails here. {@code -Dbioner.write-docs=true}
 * rewrites the tables from the options.
 */
class OptionsReferenceTest {
    static Stream<Arguments> tables() {
        return Stream.of(
                Arguments.of(
                        "docs/configuration.md",
                        "job",
                        concat(KafkaOptions.ALL, JobOptions.ALL, ServingOptions.ALL, LinkOptions.ALL)),
                Arguments.of("docs/deployment.md", "opensearch", OpenSearchSinkOptions.ALL),
                Arguments.of("docs/pubmed-feeds.md", "ingest", IngestOptions.ALL));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("tables")
    void theDocsShowEachOptionAsDeclared(String page, String group, List<ConfigOption<?>> options) throws IOException {
        Path file = DeployFiles.root().resolve(page);
        String text = Files.readString(file, StandardCharsets.UTF_8);
        String begin = OptionsReference.BEGIN + group + " -->\n";
        int from = text.indexOf(begin);
        int to = text.indexOf(OptionsReference.END, from);
        assertThat(from).as(page + " has a line '" + begin.strip() + "'").isGreaterThanOrEqualTo(0);
        assertThat(to)
                .as(page + " has a line '" + OptionsReference.END + "' after it")
                .isGreaterThan(from);
        String expected = OptionsReference.markdown(options);
        if (Boolean.getBoolean("bioner.write-docs")) {
            Files.writeString(file, text.substring(0, from + begin.length()) + expected + text.substring(to));
            return;
        }
        assertThat(text.substring(from + begin.length(), to))
                .as(page + "'s table of the " + group + " options differs from the options' own description and "
                        + "default: change the option and run mvn test -pl job -Dtest=OptionsReferenceTest "
                        + "-Dbioner.write-docs=true")
                .isEqualTo(expected);
    }

    @SafeVarargs
    private static List<ConfigOption<?>> concat(List<ConfigOption<?>>... groups) {
        return Stream.of(groups).flatMap(List::stream).toList();
    }
}
