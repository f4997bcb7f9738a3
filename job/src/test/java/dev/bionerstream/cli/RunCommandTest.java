package dev.bionerstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.job.JobConfig;
import dev.bionerstream.kafka.KafkaOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The run command's answers to a user who asks for help or forgets a value; no cluster is started. */
class RunCommandTest {
    record Result(int exit, String out, String err) {}

    static Result run(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
            int exit = Main.run(args);
            return new Result(exit, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    @Test
    void helpListsEveryKeyWithItsDefault() {
        Result r = run("run", "--help");
        assertThat(r.exit()).isZero();
        for (ConfigOption<?> o : JobConfig.OPTIONS) {
            assertThat(r.out()).as("run --help lists --%s", o.key()).contains("--" + o.key() + "=");
        }
        String out = r.out().replaceAll("\\s+", " ");
        assertThat(out)
                .contains(
                        "--batch.max-size=MAX-SIZE A model batch closes at this many sequences (Triton max_batch_size). Default: 32.",
                        "ONNX Runtime graph optimisation: none, basic, extended or all. Default: all.",
                        "go to the Kafka clients unchanged");
        assertThat(r.out().replaceAll("\\s+", ""))
                .as("run keeps its checkpoints in a directory of its own")
                .contains("Default:" + RunCommand.DEFAULT_CHECKPOINT_DIR);
    }

    @Test
    void helpShowsEachKeysDescriptionAsText() {
        Result r = run("run", "--help");
        assertThat(r.out())
                .contains("Topic of incoming abstracts.", "Kafka bootstrap servers, host:port[,host:port].")
                .doesNotContain("Description@");
    }

    @Test
    void aKeyWithoutAValueStopsWithTheFixInsteadOfStartingACluster() {
        Result r = run("run", "--kafka.bootstrap-servers");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err())
                .contains("Missing required parameter for option '--kafka.bootstrap-servers'")
                .contains("./bioner run --help");
        assertThat(r.err().lines()).as("the error, not the whole help page").hasSizeLessThan(5);
    }

    @Test
    void theKafkaClientsPropertiesPassThroughAndCheckpointsStayInRunsDirectory() {
        CommandLine cli = Main.commandLine();
        CommandLine run = cli.getSubcommands().get("run");
        cli.parseArgs(
                "run",
                "--kafka.bootstrap-servers",
                "h:9092",
                "--kafka.properties.security.protocol",
                "SSL",
                "--kafka.properties.sasl.mechanism=PLAIN");
        RunCommand command = run.getCommand();
        Map<String, String> given =
                RunCommand.given(run.getCommandSpec(), command.clientProperties).toMap();
        assertThat(given)
                .containsEntry("kafka.bootstrap-servers", "h:9092")
                .containsEntry("kafka.properties.security.protocol", "SSL")
                .containsEntry("kafka.properties.sasl.mechanism", "PLAIN")
                .containsEntry(KafkaOptions.CHECKPOINT_DIR.key(), RunCommand.DEFAULT_CHECKPOINT_DIR);
        cli.parseArgs("run", "--kafka.bootstrap-servers", "h:9092", "--job.checkpoint-dir", "s3://b/c");
        assertThat(RunCommand.given(run.getCommandSpec(), List.of()).get(KafkaOptions.CHECKPOINT_DIR))
                .isEqualTo("s3://b/c");
    }

    @Test
    void aTypoIsNamedWithTheNearestKey() {
        Result r = run("run", "--kafka.bootstrap-servers", "localhost:1", "--job.paralelism", "2");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("did you mean --job.parallelism?");
    }
}
