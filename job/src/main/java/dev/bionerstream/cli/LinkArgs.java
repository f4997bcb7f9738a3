package dev.bionerstream.cli;

import dev.bionerstream.job.LinkOptions;
import dev.bionerstream.linking.EntityLinker;
import dev.bionerstream.linking.LinkSettings;
import dev.bionerstream.linking.Linkers;
import dev.bionerstream.options.CommandLineFlags;
import java.lang.management.ManagementFactory;
import java.util.stream.Collectors;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;

/** The {@code link.*} options of every command that links mentions ({@link LinkOptions}). */
final class LinkArgs {
    private final CommandSpec spec;

    LinkArgs(CommandSpec spec) {
        this.spec = spec;
    }

    /** Gives a command the link options: {@code @Command(modelTransformer = LinkArgs.Flags.class)}. */
    static final class Flags implements IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec spec) {
            LinkOptions.ALL.forEach(option -> spec.addOption(CommandLineFlags.of(option)));
            return spec;
        }
    }

    /** The model options and the link options, for a command that extracts and links. */
    static final class WithModelFlags implements IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec spec) {
            return new Flags().transform(new EngineArgs.Flags().transform(spec));
        }
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
        return LinkOptions.settings(CommandLineFlags.given(spec, LinkOptions.ALL));
    }

    private static long usedHeapAfterGc() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
