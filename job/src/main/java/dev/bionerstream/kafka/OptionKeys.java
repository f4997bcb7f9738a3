package dev.bionerstream.kafka;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import org.apache.commons.text.similarity.LevenshteinDistance;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;

/** Refuses keys no option knows, naming the nearest known one: a typo must not be silently ignored. */
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
}
