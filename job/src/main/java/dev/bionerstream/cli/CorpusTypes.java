package dev.bionerstream.cli;

import dev.bionerstream.eval.IobCorpus;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** The {@code --types} of the {@code eval} measures: which of a corpus's types are scored, as which of ours. */
final class CorpusTypes {
    @Option(
            names = "--types",
            required = true,
            paramLabel = "CORPUS_TYPE=type,...",
            description =
                    "the corpus's types (IOB tags, PubTator types) as ours, e.g. Chemical=chemical,Disease=disease")
    String types;

    Map<String, String> map() {
        return IobCorpus.parseTypes(types);
    }

    /** Our types among them, each once: all the model need extract. */
    List<String> ours() {
        return List.copyOf(new LinkedHashSet<>(map().values()));
    }
}
