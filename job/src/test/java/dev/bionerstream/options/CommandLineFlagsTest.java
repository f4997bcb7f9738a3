package dev.bionerstream.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bionerstream.options.CommandLineFlags.Flag;
import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** A setting becomes a flag named, described and defaulted by its option, and reads back under its key. */
class CommandLineFlagsTest {
    static final ConfigOption<Integer> THREADS = ConfigOptions.key("model.threads")
            .intType()
            .defaultValue(0)
            .withDescription("Threads; 0 = all cores (100%).");
    static final ConfigOption<Duration> INTERVAL = ConfigOptions.key("job.checkpoint-interval")
            .durationType()
            .defaultValue(Duration.ofSeconds(30))
            .withDescription("Checkpoint interval.");
    static final ConfigOption<String> SERVERS = ConfigOptions.key("kafka.bootstrap-servers")
            .stringType()
            .noDefaultValue()
            .withDescription("Kafka bootstrap servers.");

    @Command(name = "tool", modelTransformer = CommandLineFlags.class)
    static final class Tool implements CommandLineFlags.Settings {
        @Spec
        CommandSpec spec;

        @Option(names = "--out", description = "not a setting")
        String out;

        @Override
        public List<Flag> settings() {
            return List.of(
                    Flag.of(THREADS, "--threads"),
                    Flag.of(INTERVAL, "--checkpoint-interval")
                            .withDefault("2 s")
                            .withNote("With --stream."),
                    Flag.of(SERVERS).required());
        }
    }

    @Command(name = "forgot", modelTransformer = CommandLineFlags.class)
    static final class Forgot {}

    private static Tool parse(String... args) {
        Tool tool = new Tool();
        new CommandLine(tool).parseArgs(args);
        return tool;
    }

    @Test
    void aFlagIsNamedByItsKeyAndItsShortNamesAndSaysWhatTheOptionSays() {
        CommandSpec spec = new CommandLine(new Tool()).getCommandSpec();
        OptionSpec threads = spec.findOption("--model.threads");
        assertThat(threads.names()).containsExactly("--threads", "--model.threads");
        assertThat(spec.findOption("--threads")).isSameAs(threads);
        assertThat(threads.paramLabel()).isEqualTo("THREADS");
        assertThat(threads.description()).containsExactly("Threads; 0 = all cores (100%). Default: 0.");
        assertThat(new CommandLine(new Tool()).getUsageMessage().replaceAll("\\s+", " "))
                .as("a %% in a description is text, not a format")
                .contains("Threads; 0 = all cores (100%). Default: 0.");
        assertThat(spec.findOption("--job.checkpoint-interval").description())
                .containsExactly("Checkpoint interval. With --stream. Default: 2 s.");
        assertThat(spec.findOption("--kafka.bootstrap-servers").required()).isTrue();
    }

    @Test
    void whatTheCommandLineGaveReadsBackTypedUnderTheJobsKeys() {
        Tool tool = parse("--threads", "3", "--kafka.bootstrap-servers=h:9092", "--out", "x");
        Configuration given = CommandLineFlags.given(tool.spec);
        assertThat(given.get(THREADS)).isEqualTo(3);
        assertThat(given.get(SERVERS)).isEqualTo("h:9092");
        assertThat(given.toMap())
                .as("the command's own options are not settings")
                .doesNotContainKey("out")
                .doesNotContainKey("--out");
    }

    @Test
    void aSettingNotGivenIsUnsetUnlessTheCommandHasItsOwnDefault() {
        Configuration given = CommandLineFlags.given(parse("--kafka.bootstrap-servers", "h:9092").spec);
        assertThat(given.contains(THREADS))
                .as("unset: the job's default applies")
                .isFalse();
        assertThat(given.get(THREADS)).isZero();
        assertThat(given.get(INTERVAL)).isEqualTo(Duration.ofSeconds(2));
        Configuration told = CommandLineFlags.given(
                parse("--kafka.bootstrap-servers", "h:9092", "--checkpoint-interval", "10s").spec);
        assertThat(told.get(INTERVAL)).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void aRequiredSettingMissingIsAUsageError() {
        assertThatThrownBy(() -> parse("--threads", "1"))
                .isInstanceOf(CommandLine.MissingParameterException.class)
                .hasMessageContaining("--kafka.bootstrap-servers");
    }

    @Test
    void aCommandThatNamesTheTransformerMustListItsSettings() {
        assertThatThrownBy(() -> new CommandLine(new Forgot()))
                .hasStackTraceContaining("must implement CommandLineFlags.Settings");
    }
}
