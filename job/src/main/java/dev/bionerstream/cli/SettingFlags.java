package dev.bionerstream.cli;

import dev.bionerstream.kafka.KafkaOptions;
import dev.bionerstream.options.CommandLineFlags;
import java.util.List;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Gives a command some of the job's settings as its options, named, described and defaulted by the
 * job's {@code ConfigOption}s ({@link CommandLineFlags}), so a setting is declared once: a subclass
 * lists the flags, {@code @Command(modelTransformer = ...)} names the subclass, and
 * {@link CommandLineFlags#given} reads them as the job reads its options.
 */
abstract class SettingFlags implements IModelTransformer {
    private final List<OptionSpec> flags;

    SettingFlags(OptionSpec... flags) {
        this.flags = List.of(flags);
    }

    @Override
    public final CommandSpec transform(CommandSpec spec) {
        flags.forEach(spec::addOption);
        return spec;
    }

    /** The job's {@code kafka.bootstrap-servers}, required of a command that talks to Kafka directly. */
    static OptionSpec bootstrapServers() {
        return CommandLineFlags.of(KafkaOptions.BOOTSTRAP_SERVERS).toBuilder()
                .required(true)
                .build();
    }
}
