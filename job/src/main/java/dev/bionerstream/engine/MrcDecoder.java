package dev.bionerstream.engine;

import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.features.WordPieces;
import dev.bionerstream.inference.WindowLogits;
import dev.bionerstream.model.EntityQuery;
import dev.bionerstream.text.Sentence;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Window logits -> entities with char offsets into the original text, genes written as {@link
 * GeneSpans} says.
 *
 * <p>A window reports only the spans that start in the pieces it owns, and a span found twice
 * (same type, same chars) is kept once with its best score. Types are independent, as in the
 * paper's one-pass-per-type decoding: the same chars claimed by two types (e.g. "insulin" as a
 * chemical and as a gene) give two entities, one per type, each with its own score; consumers
 * that want one label per span pick the higher score.
 */
public final class MrcDecoder {
    private final List<EntityQuery> types;
    private final GeneSpans geneSpans;

    public MrcDecoder(List<EntityQuery> types, GeneSpans geneSpans) {
        this.types = types;
        this.geneSpans = geneSpans;
    }

    public List<Entity> decode(EncodedText encoded, List<WindowLogits> logits) {
        if (logits.size() != encoded.windows().size()) {
            throw new IllegalArgumentException(
                    logits.size() + " logits for " + encoded.windows().size() + " windows");
        }
        Map<String, Entity> found = new LinkedHashMap<>();
        for (int k = 0; k < logits.size(); k++) {
            MrcWindow w = encoded.windows().get(k);
            Sentence s = encoded.sentences().get(encoded.windowSentence()[k]);
            WordPieces p = encoded.pieces().get(s.index());
            for (PieceSpan span : SpanDecoder.decode(logits.get(k))) {
                int first = w.firstPiece() + span.first();
                int last = w.firstPiece() + span.last();
                if (first < w.ownedFrom() || first >= w.ownedTo()) {
                    continue;
                }
                String type = types.get(w.typeIndex()).name();
                int[] written = geneSpans.apply(
                        type, encoded.text(), s.start() + p.starts()[first], s.start() + p.ends()[last]);
                if (written == null) {
                    continue;
                }
                int start = written[0];
                int end = written[1];
                Entity e = new Entity(type, start, end, encoded.text().substring(start, end), s.index(), span.score());
                found.merge(type + "@" + start + ":" + end, e, (a, b) -> a.score() >= b.score() ? a : b);
            }
        }
        List<Entity> out = new ArrayList<>(found.values());
        out.sort(Comparator.comparingInt(Entity::start)
                .thenComparingInt(Entity::end)
                .thenComparing(Entity::type));
        return out;
    }
}
