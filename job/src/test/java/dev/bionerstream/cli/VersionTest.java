package dev.bionerstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class VersionTest {
    @Test
    void versionIsTheProjectVersionOfThePom() throws Exception {
        Matcher parent = Pattern.compile("<parent>.*?<version>([^<]+)</version>", Pattern.DOTALL)
                .matcher(Files.readString(Path.of("pom.xml")));
        assertThat(parent.find()).as("the job pom's parent version").isTrue();
        assertThat(Version.number()).isEqualTo(parent.group(1));

        StringWriter out = new StringWriter();
        CommandLine cli = new CommandLine(new Main());
        cli.setOut(new PrintWriter(out));
        assertThat(cli.execute("--version")).isZero();
        assertThat(out.toString().trim()).isEqualTo("bioner-stream " + parent.group(1));
    }
}
