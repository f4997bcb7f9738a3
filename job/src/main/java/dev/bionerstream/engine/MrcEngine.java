package dev.bionerstream.engine;

import dev.bionerstream.features.MrcTokenizer;
import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.inference.InferenceOptions;
import dev.bionerstream.inference.MrcSession;
import dev.bionerstream.inference.OrtMrcSession;
import dev.bionerstream.inference.WindowLogits;
import dev.bionerstream.model.BundleManifest;
import dev.bionerstream.model.ModelBundle;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Text in, typed entity spans out: split, tokenize, window, batch, infer, decode.
 *
 * <pre>{@code
 * try (MrcEngine engine = MrcEngine.open(ModelBundle.loadDefault(), InferenceOptions.cpu(2), 16)) {
 *     List<Entity> entities = engine.extract(List.of(abstractText)).get(0);
 * }
 * }</pre>
 */
public final class MrcEngine implements AutoCloseable {
    private final BundleManifest manifest;
    private final MrcTokenizer tokenizer;
    private final MrcEncoder encoder;
    private final MrcDecoder decoder;
    private final MrcSession session;
    private final int batchSize;

    public MrcEngine(ModelBundle bundle, MrcSession session, int batchSize) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batch size must be >= 1, got " + batchSize);
        }
        this.manifest = bundle.manifest();
        this.tokenizer = new MrcTokenizer(bundle.tokenizerJson());
        this.encoder = new MrcEncoder(tokenizer, manifest.entityTypes(), manifest.maxSequenceLength());
        this.decoder = new MrcDecoder(manifest.entityTypes());
        this.session = session;
        this.batchSize = batchSize;
    }

    public static MrcEngine open(ModelBundle bundle, InferenceOptions options, int batchSize) {
        return new MrcEngine(bundle, OrtMrcSession.open(bundle, options), batchSize);
    }

    /** Entities of each text, sentences found by the splitter. */
    public List<List<Entity>> extract(List<String> texts) {
        return run(texts, encoder::encode);
    }

    /** Entities of each text, each text taken as one sentence. */
    public List<List<Entity>> extractSentences(List<String> sentences) {
        return run(sentences, encoder::encodeSentence);
    }

    private List<List<Entity>> run(List<String> texts, Function<String, EncodedText> encode) {
        List<EncodedText> encoded = new ArrayList<>(texts.size());
        List<MrcWindow> windows = new ArrayList<>();
        for (String t : texts) {
            EncodedText e = encode.apply(t);
            encoded.add(e);
            windows.addAll(e.windows());
        }
        List<WindowLogits> logits = LengthSortedBatches.run(session, windows, batchSize);
        List<List<Entity>> out = new ArrayList<>(texts.size());
        int offset = 0;
        for (EncodedText e : encoded) {
            int n = e.windows().size();
            out.add(decoder.decode(e, logits.subList(offset, offset + n)));
            offset += n;
        }
        return out;
    }

    public MrcEncoder encoder() {
        return encoder;
    }

    public MrcDecoder decoder() {
        return decoder;
    }

    public MrcSession session() {
        return session;
    }

    public BundleManifest manifest() {
        return manifest;
    }

    @Override
    public void close() {
        session.close();
        tokenizer.close();
    }
}
