package dev.bionerstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

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
        assertThat(r.out())
                .contains(
                        "--kafka.bootstrap-servers",
                        "--batch.max-size (32)",
                        "--job.checkpoint-dir",
                        "--opensearch.hosts",
                        "--model.optimization (all)");
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
        assertThat(r.err()).contains("--kafka.bootstrap-servers needs a value");
    }

    @Test
    void aTypoIsNamedWithTheNearestKey() {
        Result r = run("run", "--kafka.bootstrap-servers", "localhost:1", "--job.paralelism", "2");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("did you mean --job.parallelism?");
    }
}
