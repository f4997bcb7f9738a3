package dev.bionerstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code ./bioner --help} is the reference a user reads: one line per command, examples; each
 * command's {@code --help} has examples that use it; the README's command table says the same as
 * the command list, command for command, in the same order.
 */
class CommandHelpTest {
    private static final Pattern README_ROW = Pattern.compile("^\\| `\\./bioner ([a-z]+)` \\| (.*) \\|$");

    /** Each command's one line, as {@code ./bioner --help} lists it. */
    private static Map<String, String> commands() {
        Map<String, String> out = new LinkedHashMap<>();
        new CommandLine(new Main())
                .getSubcommands()
                .forEach((name, cmd) -> out.put(
                        name,
                        String.join(" ", cmd.getCommandSpec().usageMessage().header())));
        return out;
    }

    @Test
    void theTopLevelHelpListsEveryCommandOnOneLineWithExamples() {
        RunCommandTest.Result r = RunCommandTest.run("--help");
        assertThat(r.exit()).isZero();
        List<String> lines = r.out().lines().toList();
        commands().forEach((name, header) -> {
            assertThat(header).as("the line of %s", name).isNotBlank().doesNotContain("\n");
            assertThat(lines)
                    .as("./bioner --help lists %s with its line", name)
                    .anyMatch(l -> l.matches("\\s+" + Pattern.quote(name) + "\\s+" + Pattern.quote(header)));
        });
        assertThat(r.out()).contains("Commands:", "Examples:", "./bioner demo", "./bioner COMMAND --help");
    }

    /** Every command and subcommand by its name after {@code bioner} ("eval ner"), as ./bioner runs them. */
    static Map<String, CommandLine> allCommands() {
        Map<String, CommandLine> out = new LinkedHashMap<>();
        addSubcommands(Main.commandLine(), out);
        return out;
    }

    private static void addSubcommands(CommandLine parent, Map<String, CommandLine> out) {
        parent.getSubcommands().values().forEach(cmd -> {
            out.put(cmd.getCommandSpec().qualifiedName(" ").replaceFirst("^bioner ", ""), cmd);
            addSubcommands(cmd, out);
        });
    }

    @Test
    void everyCommandsHelpHasItsLineAndExamplesOfIt() {
        assertThat(allCommands()).containsKeys("eval ner", "eval linking");
        allCommands().forEach((name, cmd) -> {
            String header = String.join(" ", cmd.getCommandSpec().usageMessage().header());
            RunCommandTest.Result r = RunCommandTest.run((name + " --help").split(" "));
            assertThat(r.exit()).as("%s --help", name).isZero();
            assertThat(r.out())
                    .as("%s --help", name)
                    .startsWith(header)
                    .contains("Usage: bioner " + name, "Examples:", "./bioner " + name);
            assertThat(r.err())
                    .as("%s --help: picocli's complaints (a bare %% in a help text)", name)
                    .isEmpty();
        });
    }

    @Test
    void everyHelpLineFitsTheWidth() {
        CommandLine cli = Main.commandLine();
        cli.setUsageHelpAutoWidth(false);
        Map<String, CommandLine> commands = new LinkedHashMap<>(Map.of("", cli));
        addSubcommands(cli, commands);
        commands.forEach((name, cmd) -> assertThat(cmd.getUsageMessage().lines())
                .as("bioner %s --help at %d columns", name, Main.USAGE_WIDTH)
                .allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(Main.USAGE_WIDTH)));
    }

    /** Picocli wraps a longer example where it must, inside an argument, and a copied example then fails. */
    @Test
    void everyExampleFitsTheWidthUnwrapped() {
        allCommands().forEach((name, cmd) -> {
            for (String line : cmd.getCommandSpec().usageMessage().footer()) {
                assertThat(String.format(line).length())
                        .as("an example of %s: %s", name, line)
                        .isLessThanOrEqualTo(Main.USAGE_WIDTH);
            }
        });
    }

    @Test
    void theReadmesCommandTableMatchesTheHelp() throws IOException {
        Map<String, String> readme = readmeTable();
        assertThat(new ArrayList<>(readme.keySet()))
                .as("commands of the README's table, in order")
                .containsExactlyElementsOf(commands().keySet());
        commands().forEach((name, header) -> assertThat(readme.get(name))
                .as("README's line for %s", name)
                .isEqualTo(header));
    }

    /** The rows of the table under "## Command line" in README.md: command, what it does. */
    private static Map<String, String> readmeTable() throws IOException {
        Path readme = null;
        for (Path p = Path.of("").toAbsolutePath(); p != null && readme == null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("README.md")) && Files.isRegularFile(p.resolve("bioner"))) {
                readme = p.resolve("README.md");
            }
        }
        assertThat(readme).as("README.md beside ./bioner").isNotNull();
        List<String> lines = Files.readAllLines(readme);
        int section = lines.indexOf("## Command line");
        assertThat(section).as("README section '## Command line'").isNotNegative();
        Map<String, String> rows = new LinkedHashMap<>();
        boolean inTable = false;
        for (String line : lines.subList(section + 1, lines.size())) {
            if (line.startsWith("|")) {
                inTable = true;
                Matcher m = README_ROW.matcher(line);
                if (m.matches()) {
                    rows.put(m.group(1), m.group(2).replace("\\|", "|"));
                }
            } else if (inTable || line.startsWith("## ")) {
                break;
            }
        }
        return rows;
    }
}
