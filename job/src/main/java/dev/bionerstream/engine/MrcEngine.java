package dev.bionerstream.engine;

import dev.bionerstream.features.MrcTokenizer;
import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.inference.InferenceOptions;
import dev.bionerstream.inference.MrcSession;
import dev.bionerstream.inference.OrtMrcSession;
import dev.bionerstream.inference.WindowLogits;
import dev.bionerstream.model.BundleManifest;
import dev.bionerstream.model.EntityQuery;
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
    private final List<EntityQuery> queries;
    private final MrcTokenizer tokenizer;
    private final MrcEncoder encoder;
    private final MrcDecoder decoder;
    private final MrcSession session;
    private final int batchSize;

    /** All of the bundle's entity types. */
    public MrcEngine(ModelBundle bundle, MrcSession session, int batchSize) {
        this(bundle, session, batchSize, List.of());
    }

    /** Only {@code types} (all when empty): a type not asked for costs no model pass. */
    public MrcEngine(ModelBundle bundle, MrcSession session, int batchSize, List<String> types) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batch size must be >= 1, got " + batchSize);
        }
        this.manifest = bundle.manifest();
        this.queries = select(manifest.entityTypes(), types);
        this.tokenizer = new MrcTokenizer(bundle.tokenizerJson());
        this.encoder = new MrcEncoder(tokenizer, queries, manifest.maxSequenceLength());
        this.decoder = new MrcDecoder(queries);
        this.session = session;
        this.batchSize = batchSize;
    }

    public static MrcEngine open(ModelBundle bundle, InferenceOptions options, int batchSize) {
        return open(bundle, options, batchSize, List.of());
    }

    public static MrcEngine open(ModelBundle bundle, InferenceOptions options, int batchSize, List<String> types) {
        List<EntityQuery> checked = select(bundle.manifest().entityTypes(), types); // fail before loading the model
        return new MrcEngine(bundle, OrtMrcSession.open(bundle, options), batchSize, checked.stream().map(EntityQuery::name).toList());
    }

    private static List<EntityQuery> select(List<EntityQuery> all, List<String> types) {
        if (types.isEmpty()) {
            return all;
        }
        List<String> known = all.stream().map(EntityQuery::name).toList();
        for (String t : types) {
            if (!known.contains(t)) {
                throw new IllegalArgumentException("the bundle has no entity type '" + t + "'; it has " + known);
            }
        }
        return all.stream().filter(q -> types.contains(q.name())).toList();
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

    /** The entity types this engine extracts. */
    public List<EntityQuery> queries() {
        return queries;
    }

    @Override
    public void close() {
        session.close();
        tokenizer.close();
    }
}
