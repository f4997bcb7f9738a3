package dev.bionerstream.syntax;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import opennlp.tools.chunker.ChunkerME;
import opennlp.tools.chunker.ChunkerModel;
import opennlp.tools.postag.POSModel;
import opennlp.tools.postag.POSTagFormat;
import opennlp.tools.postag.POSTaggerME;

/**
 * The syntax annotator of training and serving: Apache OpenNLP's English maximum-entropy POS tagger
 * (Penn Treebank tags) and chunker (CoNLL-2000 chunks), the 1.5 models from Maven Central
 * ({@code edu.washington.cs.knowitall:opennlp-postag-models} and {@code opennlp-chunk-models},
 * Apache-2.0). OpenNLP has no permissively licensed dependency parser, so dependencies come from
 * {@link HeadRules} over the chunks.
 *
 * <p>The models are loaded once (about 8 MB, a second); taggers hold per-call state, so each thread
 * gets its own over the shared models.
 */
public final class OpenNlpAnnotator implements SyntaxAnnotator {
    public static final String NAME = "opennlp-2.5 en-pos-maxent-1.5 en-chunker-1.5 head-rules-1";

    private final ThreadLocal<POSTaggerME> tagger;
    private final ThreadLocal<ChunkerME> chunker;

    private static final class Shared {
        static final OpenNlpAnnotator INSTANCE = new OpenNlpAnnotator();
    }

    /** One annotator per JVM: every engine and slot shares its models. */
    public static OpenNlpAnnotator shared() {
        return Shared.INSTANCE;
    }

    private OpenNlpAnnotator() {
        POSModel pos;
        ChunkerModel chunks;
        try (InputStream p = resource("/en-pos-maxent.bin");
                InputStream c = resource("/en-chunker.bin")) {
            pos = new POSModel(p);
            chunks = new ChunkerModel(c);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot load the OpenNLP models", e);
        }
        // PENN: OpenNLP 2.x would otherwise map the tags to UD, which the chunker was not trained on
        tagger = ThreadLocal.withInitial(() -> new POSTaggerME(pos, POSTagFormat.PENN));
        chunker = ThreadLocal.withInitial(() -> new ChunkerME(chunks));
    }

    private static InputStream resource(String name) {
        InputStream in = OpenNlpAnnotator.class.getResourceAsStream(name);
        if (in == null) {
            throw new IllegalStateException(name + " is not on the classpath: the OpenNLP model jars are missing");
        }
        return new java.io.BufferedInputStream(in);
    }

    @Override
    public WordSyntax annotate(String sentence) {
        List<int[]> spans = Words.spans(sentence);
        String[] words = new String[spans.size()];
        for (int i = 0; i < words.length; i++) {
            words[i] = sentence.substring(spans.get(i)[0], spans.get(i)[1]);
        }
        String[] tags = words.length == 0 ? new String[0] : tagger.get().tag(words);
        String[] chunks = words.length == 0 ? new String[0] : chunker.get().chunk(words, tags);
        Map<SyntaxKind, List<List<Context>>> contexts = new EnumMap<>(SyntaxKind.class);
        contexts.put(SyntaxKind.POS, window(tags));
        contexts.put(SyntaxKind.CHUNK, chunkContexts(chunks));
        contexts.put(SyntaxKind.DEP, HeadRules.parse(tags, chunks).contexts());
        return new WordSyntax(spans, contexts);
    }

    /** Each word, its left and its right neighbour, with their POS tags. */
    static List<List<Context>> window(String[] tags) {
        List<List<Context>> out = new ArrayList<>(tags.length);
        for (int i = 0; i < tags.length; i++) {
            List<Context> c = new ArrayList<>(3);
            c.add(new Context(i, tags[i]));
            if (i > 0) {
                c.add(new Context(i - 1, tags[i - 1]));
            }
            if (i + 1 < tags.length) {
                c.add(new Context(i + 1, tags[i + 1]));
            }
            out.add(c);
        }
        return out;
    }

    /** Each word and the other words of its chunk (a word outside every chunk stands alone), with their chunk tags. */
    static List<List<Context>> chunkContexts(String[] chunks) {
        List<List<Context>> out = new ArrayList<>(chunks.length);
        for (int i = 0; i < chunks.length; i++) {
            List<Context> c = new ArrayList<>();
            c.add(new Context(i, chunks[i]));
            if (!chunks[i].equals("O")) {
                int first = HeadRules.chunkStart(chunks, i);
                int end = HeadRules.chunkEnd(chunks, i);
                for (int k = first; k < end; k++) {
                    if (k != i) {
                        c.add(new Context(k, chunks[k]));
                    }
                }
            }
            out.add(c);
        }
        return out;
    }

    @Override
    public String name() {
        return NAME;
    }
}
