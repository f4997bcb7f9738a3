package dev.bionerstream.options;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import org.apache.commons.text.similarity.LevenshteinDistance;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;

/**
 * Reads {@code --key value} arguments and refuses keys no option knows, naming the nearest known
 * one: a typo must not be silently ignored.
 */
public final class OptionKeys {
    private static final LevenshteinDistance DISTANCE = LevenshteinDistance.getDefaultInstance();

    private OptionKeys() {}

    public static void requireKnown(
            Configuration given, Collection<ConfigOption<?>> options, String passThroughPrefix) {
        List<String> known = options.stream().map(ConfigOption::key).sorted().toList();
        for (String key : given.keySet()) {
            if (!known.contains(key) && !key.startsWith(passThroughPrefix)) {
                String nearest = known.stream()
                        .min(Comparator.comparingInt(k -> DISTANCE.apply(k, key)))
                        .orElseThrow();
                throw new IllegalArgumentException("unknown option --" + key + "; did you mean --" + nearest + "? "
                        + "(./bioner run --help lists every option)");
            }
        }
    }

    /** Reads {@code --key value} and {@code --key=value} pairs into a Flink configuration. */
    public static Configuration parseArgs(String... args) {
        Configuration c = new Configuration();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--") || a.length() == 2) {
                throw new IllegalArgumentException("expected --key value, got '" + a + "'");
            }
            int eq = a.indexOf('=');
            if (eq > 0) {
                c.setString(a.substring(2, eq), a.substring(eq + 1));
            } else if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
                c.setString(a.substring(2), args[++i]);
            } else {
                throw new IllegalArgumentException("--" + a.substring(2) + " needs a value: --" + a.substring(2)
                        + " VALUE or --" + a.substring(2) + "=VALUE");
            }
        }
        return c;
    }
}
