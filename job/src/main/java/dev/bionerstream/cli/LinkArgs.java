package dev.bionerstream.cli;

import dev.bionerstream.job.LinkOptions;
import dev.bionerstream.linking.EntityLinker;
import dev.bionerstream.linking.LinkSettings;
import dev.bionerstream.linking.Linkers;
import dev.bionerstream.options.CommandLineFlags;
import dev.bionerstream.options.CommandLineFlags.Flag;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import picocli.CommandLine.Model.CommandSpec;

/** The {@code link.*} options of every command that links mentions ({@link LinkOptions}). */
final class LinkArgs {
    /** The linker's flags, for a command's {@link CommandLineFlags.Settings}. */
    static final List<Flag> FLAGS = Flag.all(LinkOptions.ALL);

    /** The model's flags and the linker's, for a command that extracts and links. */
    static final List<Flag> WITH_MODEL_FLAGS =
            Stream.concat(EngineArgs.FLAGS.stream(), FLAGS.stream()).toList();

    private final CommandSpec spec;

    /** The link options the command line gave the command {@code spec}. */
    LinkArgs(CommandSpec spec) {
        this.spec = spec;
    }

    /**
     * The linker of the options given, loaded once per JVM; prints how long loading took and the heap
     * the vocabularies hold (used heap after a collection, before and after loading).
     */
    EntityLinker open() {
        long heapBefore = usedHeapAfterGc();
        long t0 = System.nanoTime();
        EntityLinker linker = Linkers.shared(settings());
        double seconds = (System.nanoTime() - t0) / 1e9;
        String sizes = linker.vocabularies().entrySet().stream()
                .map(e -> String.format(
                                "%s %,d concepts / %,d names",
                                e.getKey(),
                                e.getValue().concepts(),
                                e.getValue().keys())
                        + (e.getValue().taxonomySize() > 0
                                ? String.format(
                                        " + %,d NCBI Taxonomy taxa",
                                        e.getValue().taxonomySize())
                                : ""))
                .collect(Collectors.joining(", "));
        System.err.printf(
                "vocabularies loaded in %.1f s, %d MB of heap: %s%n",
                seconds, (usedHeapAfterGc() - heapBefore) >> 20, sizes);
        return linker;
    }

    /** The settings the options give, before any vocabulary is read. */
    LinkSettings settings() {
        return LinkOptions.settings(CommandLineFlags.given(spec));
    }

    private static long usedHeapAfterGc() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
