package dev.bionerstream.cli;

import dev.bionerstream.serving.ServingOptions;
import java.util.Arrays;
import org.apache.flink.configuration.ConfigOption;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Command-line defaults taken from the {@link ServingOptions} an option is named after, so the
 * command line, the demo and the job share one set of defaults.
 */
public final class ServingDefaults implements IDefaultValueProvider {
    @Override
    public String defaultValue(ArgSpec arg) {
        if (!(arg instanceof OptionSpec option)) {
            return null;
        }
        for (ConfigOption<?> o : ServingOptions.ALL) {
            if (Arrays.asList(option.names()).contains("--" + o.key())) {
                return o.hasDefaultValue() ? format(o.defaultValue()) : null;
            }
        }
        return null;
    }

    private static String format(Object value) {
        return value instanceof java.time.Duration d ? d.toMillis() + " ms" : String.valueOf(value);
    }
}
