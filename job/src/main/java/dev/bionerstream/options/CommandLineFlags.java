package dev.bionerstream.options;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Picocli options made from {@link ConfigOption}s: named {@code --key} (plus any short aliases), with
 * the option's own description and default, so a command-line option is never declared a second
 * time and the help page says what the job's option says.
 */
public final class CommandLineFlags {
    private CommandLineFlags() {}

    public static OptionSpec of(ConfigOption<?> option, String... aliases) {
        String[] names = Stream.concat(Stream.of(aliases), Stream.of("--" + option.key()))
                .toArray(String[]::new);
        String def = OptionText.defaultValue(option);
        // Picocli reads a description as a format string.
        String description =
                (OptionText.description(option) + (def.isEmpty() ? "" : " Default: " + def + ".")).replace("%", "%%");
        return OptionSpec.builder(names)
                .type(String.class)
                .paramLabel(option.key()
                        .substring(option.key().lastIndexOf('.') + 1)
                        .toUpperCase(Locale.ROOT))
                .description(description)
                .build();
    }

    /**
     * What the command line gave for {@code options}, as the job reads it; an option not given is left
     * unset, so it reads as its default and is parsed and checked where the job's are.
     */
    public static Configuration given(CommandSpec spec, Collection<ConfigOption<?>> options) {
        Map<String, String> given = new LinkedHashMap<>();
        for (ConfigOption<?> o : options) {
            OptionSpec flag = spec.findOption("--" + o.key());
            if (flag != null && flag.getValue() != null) {
                given.put(o.key(), flag.getValue());
            }
        }
        return Configuration.fromMap(given);
    }
}
