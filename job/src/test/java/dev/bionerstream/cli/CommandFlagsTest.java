package dev.bionerstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.ingest.IngestConfig;
import dev.bionerstream.job.JobConfig;
import dev.bionerstream.kafka.KafkaOptions;
import dev.bionerstream.options.CommandLineFlags;
import dev.bionerstream.options.CommandLineFlags.Flag;
import dev.bionerstream.serving.ServingOptions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Each command takes as flags the job's settings of what it runs, all through {@link
 * CommandLineFlags}, and a flag's value reaches the typed configuration.
 */
class CommandFlagsTest {
    private static final List<String> MODEL =
            List.of("--bundle", "--model.bundle", "--gene-spans", "--model.gene-spans");
    private static final List<String> LINK = List.of("--link.bundles", "--link.min-score", "--link.vocabulary");

    private static Map<String, CommandSpec> commands() {
        Map<String, CommandSpec> out = new LinkedHashMap<>();
        CommandHelpTest.allCommands().forEach((name, cmd) -> out.put(name, cmd.getCommandSpec()));
        return out;
    }

    private static boolean has(String command, String flag) {
        return commands().get(command).findOption(flag) != null;
    }

    /** The spec of the command {@code args} names, parsed as ./bioner parses them. */
    private static CommandSpec parsed(String... args) {
        CommandLine.ParseResult r = Main.commandLine().parseArgs(args);
        while (r.hasSubcommand()) {
            r = r.subcommand();
        }
        return r.commandSpec();
    }

    @Test
    void everyCommandThatListsSettingsHasEachAsAFlagUnderItsKeyAndShortNames() {
        Map<String, CommandSpec> settingCommands = new LinkedHashMap<>();
        commands().forEach((name, spec) -> {
            if (spec.userObject() instanceof CommandLineFlags.Settings s) {
                settingCommands.put(name, spec);
                for (Flag f : s.settings()) {
                    OptionSpec flag = spec.findOption("--" + f.option().key());
                    assertThat(flag)
                            .as(
                                    "%s: --%s (does its @Command name CommandLineFlags?)",
                                    name, f.option().key())
                            .isNotNull();
                    assertThat(flag.names())
                            .as("%s --%s", name, f.option().key())
                            .containsAll(f.aliases());
                    assertThat(flag.userObject()).isSameAs(f.option());
                }
            }
        });
        assertThat(settingCommands.keySet())
                .containsExactlyInAnyOrder(
                        "demo",
                        "run",
                        "ingest",
                        "view",
                        "import",
                        "export",
                        "extract",
                        "link",
                        "eval ner",
                        "eval linking",
                        "bench");
    }

    @Test
    void theCommandsThatRunTheModelTakeItsFlags() {
        for (String c : List.of("demo", "extract", "bench", "eval ner", "eval linking")) {
            for (String flag : MODEL) {
                assertThat(has(c, flag)).as("%s %s", c, flag).isTrue();
            }
        }
        for (String c : List.of("link", "export", "import", "view", "ingest")) {
            assertThat(has(c, "--model.bundle")).as("%s --model.bundle", c).isFalse();
        }
    }

    @Test
    void theCommandsThatLinkTakeTheLinkersFlags() {
        for (String c : List.of("extract", "link", "bench", "eval linking", "run")) {
            for (String flag : LINK) {
                assertThat(has(c, flag)).as("%s %s", c, flag).isTrue();
            }
        }
        for (String c : List.of("eval ner", "demo", "export", "import", "view", "ingest")) {
            assertThat(has(c, "--link.bundles")).as("%s --link.bundles", c).isFalse();
        }
    }

    @Test
    void runAndIngestTakeEveryKeyOfTheirJob() {
        for (ConfigOption<?> o : JobConfig.OPTIONS) {
            assertThat(has("run", "--" + o.key())).as("run --%s", o.key()).isTrue();
        }
        for (ConfigOption<?> o : IngestConfig.OPTIONS) {
            assertThat(has("ingest", "--" + o.key())).as("ingest --%s", o.key()).isTrue();
        }
    }

    @Test
    void theKafkaCommandsTakeTheirTopicUnderAShortName() {
        assertThat(commands().get("export").findOption("--topic").names()).contains("--kafka.documents-topic");
        assertThat(commands().get("import").findOption("--topic").names()).contains("--kafka.input-topic");
        assertThat(commands().get("view").findOption("--index").names()).contains("--opensearch.index");
        for (String c : List.of("export", "import")) {
            assertThat(commands().get(c).findOption("--kafka.bootstrap-servers").required())
                    .as(c)
                    .isTrue();
        }
    }

    @Test
    void aFlagsValueReachesTheTypedConfigurationUnderEitherName() {
        CommandSpec extract =
                parsed("extract", "--threads", "2", "--model.gene-spans", "as-decoded", "--link.min-score", "0.9");
        Configuration given = CommandLineFlags.given(extract);
        assertThat(given.get(ServingOptions.THREADS)).isEqualTo(2);
        assertThat(given.toMap()).containsEntry("model.gene-spans", "as-decoded");
        assertThat(new LinkArgs(extract).settings().minScore()).isEqualTo(0.9);
        assertThat(CommandLineFlags.given(parsed("export", "--kafka.bootstrap-servers", "h:1", "--topic", "docs"))
                        .toMap())
                .containsEntry("kafka.documents-topic", "docs")
                .containsEntry("kafka.bootstrap-servers", "h:1");
    }

    @Test
    void benchsStreamingJobCheckpointsEveryTwoSecondsUnlessTold() {
        assertThat(CommandLineFlags.given(parsed("bench", "--stream")).get(KafkaOptions.CHECKPOINT_INTERVAL))
                .isEqualTo(Duration.ofSeconds(2));
        Configuration told = CommandLineFlags.given(
                parsed("bench", "--stream", "--checkpoint-interval", "10s", "--delivery-guarantee", "at-least-once"));
        assertThat(told.get(KafkaOptions.CHECKPOINT_INTERVAL)).isEqualTo(Duration.ofSeconds(10));
        assertThat(told.toMap()).containsEntry("kafka.delivery-guarantee", "at-least-once");
    }

    @Test
    void theDemoSaysWhatItServesSpanishRecordsWith() {
        assertThat(String.join(
                        " ",
                        commands()
                                .get("demo")
                                .findOption("--model.language-bundles")
                                .description()))
                .contains("Here: spa=bundles/pharmaconer-es", "unless none");
    }
}
