package dev.bionerstream.engine;

import dev.bionerstream.features.MrcTokenizer;
import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.model.BundleManifest;
import dev.bionerstream.model.EntityQuery;
import dev.bionerstream.model.ModelBundle;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Texts in, typed entity spans out: split, tokenize, window, run (through a {@link WindowRunner}),
 * decode. The one entry point is {@link #extract}; how windows reach the model is the caller's
 * choice, so the command line and the streaming job share every other step.
 *
 * <pre>{@code
 * ModelBundle bundle = ModelBundle.loadDefault();
 * try (MrcSession session = OrtMrcSession.open(bundle, InferenceOptions.cpu(2));
 *         MrcEngine engine = new MrcEngine(bundle, List.of())) {
 *     Extraction x = engine.extract(List.of(abstractText), Segmentation.SENTENCES,
 *             new LengthSortedBatches(session, new BatchSize(32))).join();
 *     List<Entity> entities = x.entities().get(0);
 * }
 * }</pre>
 */
public final class MrcEngine implements AutoCloseable {
    private final BundleManifest manifest;
    private final List<EntityQuery> queries;
    private final MrcTokenizer tokenizer;
    private final MrcEncoder encoder;
    private final MrcDecoder decoder;
    private final PresenceGate gate; // null: every type is asked of every sentence
    private final int[] presenceIndex; // per selected type, its column in the gate's output

    /**
     * Only {@code types} (all of the bundle's when empty), with the gate the bundle recommends; spans
     * as the model decodes them ({@link GeneSpans#AS_DECODED}).
     */
    public MrcEngine(ModelBundle bundle, List<String> types) {
        this(bundle, types, GateSetting.BUNDLE);
    }

    /**
     * Only {@code types} (all of the bundle's when empty): a type not asked for costs no model pass.
     * {@code gate} is the presence gate setting ({@link PresenceGate#resolve}). A gate or corpus the bundle
     * cannot apply is a {@link RefusedSettingException}.
     */
    public MrcEngine(ModelBundle bundle, List<String> types, GateSetting gate) {
        this(bundle, types, gate, Map.of(), GeneSpans.AS_DECODED);
    }

    /**
     * As above; for a bundle trained with corpus tags, {@code corpora} picks the corpus whose
     * conventions a type follows (type -> corpus), instead of the bundle's default for that type;
     * {@code geneSpans} is how gene spans are written (the job's and the commands' default: {@link
     * GeneSpans#PUBTATOR}).
     */
    public MrcEngine(
            ModelBundle bundle,
            List<String> types,
            GateSetting gate,
            Map<String, String> corpora,
            GeneSpans geneSpans) {
        this.manifest = bundle.manifest();
        this.queries = select(manifest.entityTypes(), types);
        this.gate = PresenceGate.resolve(manifest, gate).orElse(null);
        Optional<SentenceSyntax> syntax = SentenceSyntax.of(manifest);
        if (this.gate != null && syntax.isPresent()) {
            throw new RefusedSettingException(
                    RefusedSettingException.Setting.GATE,
                    gate + ": the bundle " + manifest.id()
                            + " reads syntax, which its presence gate's pass does not have: set the gate off");
        }
        this.presenceIndex =
                queries.stream().mapToInt(manifest.entityTypes()::indexOf).toArray();
        this.tokenizer = new MrcTokenizer(bundle.tokenizerJson());
        this.encoder = new MrcEncoder(
                tokenizer,
                CorpusConventions.questions(manifest, queries, corpora),
                manifest.maxSequenceLength(),
                syntax.orElse(null));
        this.decoder = new MrcDecoder(queries, geneSpans);
    }

    /** The bundle's types named in {@code types}, in the bundle's order; all of them when empty. */
    public static List<EntityQuery> select(List<EntityQuery> all, List<String> types) {
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

    /**
     * The entities of each text. The future fails when the texts cannot be encoded or the runner
     * fails; cancelling it withdraws the texts' windows that have not run yet. With a presence
     * gate the runner gets two calls: the sentences' query-free windows, then the windows of the
     * types they may hold.
     */
    public CompletableFuture<Extraction> extract(List<String> texts, Segmentation segmentation, WindowRunner runner) {
        List<EncodedText> encoded;
        try {
            encoded = encode(texts, segmentation);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        AtomicReference<CompletableFuture<List<WindowResult>>> running = new AtomicReference<>();
        CompletableFuture<Extraction> out;
        if (gate == null) {
            running.set(runner.run(windows(encoded)));
            out = running.get().thenApply(results -> decode(encoded, results, List.of(), 0));
        } else {
            GatePass pass = gatePass(encoded);
            running.set(runner.run(pass.windows()));
            out = running.get().thenCompose(asked -> {
                List<EncodedText> kept = pass.keep(asked, gate, presenceIndex, queries.size());
                List<MrcWindow> keptWindows = windows(kept);
                CompletableFuture<List<WindowResult>> spans = runner.run(keptWindows);
                running.set(spans);
                int skipped = encoded.stream().mapToInt(e -> e.windows().size()).sum() - keptWindows.size();
                return spans.thenApply(results -> decode(kept, results, asked, skipped));
            });
        }
        out.whenComplete((x, error) -> {
            if (error != null) {
                running.get().cancel(false);
            }
        });
        return out;
    }

    /** Every sentence's query-free windows, and whose they are. */
    private GatePass gatePass(List<EncodedText> encoded) {
        List<MrcWindow> windows = new ArrayList<>();
        List<int[]> owners = new ArrayList<>();
        for (int t = 0; t < encoded.size(); t++) {
            EncodedText e = encoded.get(t);
            for (int s = 0; s < e.sentences().size(); s++) {
                if (e.pieces().get(s).size() > 0) {
                    for (MrcWindow w : encoder.gateWindows(e.pieces().get(s))) {
                        windows.add(w);
                        owners.add(new int[] {t, s});
                    }
                }
            }
        }
        return new GatePass(encoded, windows, owners);
    }

    /** The (sentence, type) windows the model would see for {@code texts}, for measuring the model alone. */
    public List<MrcWindow> windows(List<String> texts, Segmentation segmentation) {
        return windows(encode(texts, segmentation));
    }

    private List<EncodedText> encode(List<String> texts, Segmentation segmentation) {
        List<EncodedText> encoded = new ArrayList<>(texts.size());
        for (String t : texts) {
            String text = t == null ? "" : t;
            encoded.add(segmentation == Segmentation.SENTENCES ? encoder.encode(text) : encoder.encodeSentence(text));
        }
        return encoded;
    }

    private static List<MrcWindow> windows(List<EncodedText> encoded) {
        List<MrcWindow> windows = new ArrayList<>();
        encoded.forEach(e -> windows.addAll(e.windows()));
        return windows;
    }

    private Extraction decode(
            List<EncodedText> encoded, List<WindowResult> results, List<WindowResult> gateResults, int skipped) {
        List<List<Entity>> entities = new ArrayList<>(encoded.size());
        List<Integer> sentences = new ArrayList<>(encoded.size());
        int offset = 0;
        for (EncodedText e : encoded) {
            int n = e.windows().size();
            entities.add(decoder.decode(
                    e,
                    results.subList(offset, offset + n).stream()
                            .map(WindowResult::logits)
                            .toList()));
            sentences.add(e.sentences().size());
            offset += n;
        }
        List<WindowResult> served = new ArrayList<>(gateResults);
        served.addAll(results);
        return new Extraction(entities, sentences, served, skipped);
    }

    public BundleManifest manifest() {
        return manifest;
    }

    @Override
    public void close() {
        tokenizer.close();
    }
}
