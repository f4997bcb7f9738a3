package dev.bionerstream.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bionerstream.eval.IobCorpus;
import dev.bionerstream.features.MrcTokenizer;
import dev.bionerstream.features.PieceSyntax;
import dev.bionerstream.syntax.Context;
import dev.bionerstream.syntax.OpenNlpAnnotator;
import dev.bionerstream.syntax.SyntaxKind;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Writes the syntax the engine computes for each sentence, on its word pieces, so model-export
 * trains a syntax model on exactly what the job will feed it: one JSON line per distinct sentence,
 * {@code {"text": ..., "pos": [[[piece, label], ...] per piece], "chunk": ..., "dep": ...}}, the
 * word itself first in each piece's list.
 */
@Command(
        name = "annotate",
        mixinStandardHelpOptions = true,
        header = "The syntax a syntax bundle reads, as JSON lines",
        description = {"One JSON line per distinct sentence; model-export trains syntax bundles on this output."},
        footerHeading = "%nExamples:%n",
        footer = {"  ./bioner annotate --iob corpora/BC5CDR-IOB/train.tsv --tokenizer tokenizer.json --out syntax.jsonl"
        })
final class AnnotateCommand implements Callable<Integer> {
    @Option(names = "--iob", description = "IOB file(s) whose sentences to annotate (tokens joined by single spaces)")
    List<Path> iob = new ArrayList<>();

    @Option(names = "--texts", description = "a file of sentences, one per line")
    Path texts;

    @Option(names = "--tokenizer", required = true, description = "the tokenizer.json of the model")
    Path tokenizer;

    @Option(names = "--out", required = true, description = "JSON lines file to write")
    Path out;

    @Override
    public Integer call() throws IOException {
        LinkedHashSet<String> sentences = new LinkedHashSet<>();
        for (Path f : iob) {
            sentences.addAll(IobCorpus.read(f, Map.of()).sentences());
        }
        if (texts != null) {
            Files.readAllLines(texts, StandardCharsets.UTF_8).stream()
                    .filter(s -> !s.isBlank())
                    .forEach(sentences::add);
        }
        if (sentences.isEmpty()) {
            throw new IllegalArgumentException("no sentences: give --iob FILE or --texts FILE");
        }
        ObjectMapper json = new ObjectMapper();
        OpenNlpAnnotator annotator = OpenNlpAnnotator.shared();
        long t0 = System.nanoTime();
        try (MrcTokenizer tok = new MrcTokenizer(Files.readAllBytes(tokenizer));
                Writer w = new BufferedWriter(
                        new OutputStreamWriter(Files.newOutputStream(out), StandardCharsets.UTF_8))) {
            for (String s : sentences) {
                PieceSyntax syntax = PieceSyntax.of(annotator.annotate(s), tok.tokenize(s));
                Map<String, Object> line = new LinkedHashMap<>();
                line.put("text", s);
                for (SyntaxKind k : SyntaxKind.values()) {
                    line.put(k.key(), pairs(syntax.contexts().get(k)));
                }
                w.write(json.writeValueAsString(line));
                w.write('\n');
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.err.printf(
                "%d sentences annotated by %s in %.1f s (%.0f sentences/s) -> %s%n",
                sentences.size(), annotator.name(), seconds, sentences.size() / seconds, out);
        return 0;
    }

    private static List<List<Object[]>> pairs(List<List<Context>> byPiece) {
        return byPiece.stream()
                .map(c ->
                        c.stream().map(x -> new Object[] {x.index(), x.label()}).toList())
                .toList();
    }
}
