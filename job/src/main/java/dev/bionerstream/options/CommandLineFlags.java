package dev.bionerstream.options;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The one path from the job's settings to a command's flags and back. A command lists the settings
 * it takes ({@link Settings}) and names this class as its model transformer; each setting becomes a
 * flag {@code --key} (plus any short names) with the {@link ConfigOption}'s own description and
 * default, so a flag is never declared a second time and its help says what the job's option says.
 * {@link #given} reads the flags back under the job's keys, to be parsed and checked where the job
 * parses and checks its own options.
 *
 * <pre>{@code
 * @Command(name = "export", modelTransformer = CommandLineFlags.class)
 * final class ExportCommand implements CommandLineFlags.Settings, Callable<Integer> {
 *     @Spec CommandSpec spec;
 *
 *     public List<Flag> settings() {
 *         return List.of(Flag.of(KafkaOptions.BOOTSTRAP_SERVERS).required(), Flag.of(JobOptions.DOCUMENTS_TOPIC, "--topic"));
 *     }
 *
 *     public Integer call() {
 *         Configuration job = CommandLineFlags.given(spec);
 *         String topic = job.get(JobOptions.DOCUMENTS_TOPIC);
 *         ...
 * }</pre>
 */
public final class CommandLineFlags implements IModelTransformer {
    /** A command that takes some of the job's settings as flags. */
    public interface Settings {
        List<Flag> settings();
    }

    /**
     * A setting as a command's flag: its short names, whether the command requires it, and a default
     * and a note of the command's own where it differs from the job.
     */
    public record Flag(
            ConfigOption<?> option, List<String> aliases, boolean mandatory, String ownDefault, String note) {
        public static Flag of(ConfigOption<?> option, String... aliases) {
            return new Flag(option, List.of(aliases), false, null, "");
        }

        /** Each option as a flag of its own key only. */
        public static List<Flag> all(Collection<ConfigOption<?>> options) {
            return options.stream().map(o -> of(o)).toList();
        }

        public Flag required() {
            return new Flag(option, aliases, true, ownDefault, note);
        }

        /** The command's default, in place of the job's (a value as a user writes it: {@code 2 s}). */
        public Flag withDefault(String value) {
            return new Flag(option, aliases, mandatory, value, note);
        }

        /** A sentence the command adds to the option's description. */
        public Flag withNote(String sentence) {
            return new Flag(option, aliases, mandatory, ownDefault, sentence);
        }

        OptionSpec toOption() {
            String[] names = Stream.concat(aliases.stream(), Stream.of("--" + option.key()))
                    .toArray(String[]::new);
            String def = ownDefault != null ? ownDefault : OptionText.defaultValue(option);
            String description = OptionText.description(option)
                    + (note.isEmpty() ? "" : " " + note)
                    + (def.isEmpty() ? "" : " Default: " + def + ".");
            return OptionSpec.builder(names)
                    .type(String.class)
                    .paramLabel(option.key()
                            .substring(option.key().lastIndexOf('.') + 1)
                            .toUpperCase(Locale.ROOT))
                    // Picocli reads a description as a format string.
                    .description(description.replace("%", "%%"))
                    .required(mandatory)
                    .defaultValue(ownDefault)
                    .userObject(option)
                    .build();
        }
    }

    @Override
    public CommandSpec transform(CommandSpec spec) {
        if (!(spec.userObject() instanceof Settings command)) {
            throw new IllegalStateException(spec.userObject().getClass().getName()
                    + " names CommandLineFlags as its model transformer: it must implement CommandLineFlags.Settings");
        }
        command.settings().forEach(f -> spec.addOption(f.toOption()));
        return spec;
    }

    /**
     * What the command line gave for the command's settings (or the command's own default), under
     * the job's keys; a setting not given is left unset, so it reads as the job's default.
     */
    public static Configuration given(CommandSpec spec) {
        Map<String, String> given = new LinkedHashMap<>();
        for (OptionSpec flag : spec.options()) {
            if (flag.userObject() instanceof ConfigOption<?> option && flag.getValue() != null) {
                given.put(option.key(), flag.getValue());
            }
        }
        return Configuration.fromMap(given);
    }
}
