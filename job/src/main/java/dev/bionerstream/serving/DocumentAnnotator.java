package dev.bionerstream.serving;

import dev.bionerstream.avro.TextField;
import dev.bionerstream.engine.EncodedText;
import dev.bionerstream.engine.Entity;
import dev.bionerstream.engine.MrcEngine;
import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.inference.WindowLogits;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Fans one document out into (sentence, type) windows on the shared batcher and gathers them
 * back into the document's entities, per field (title, abstract).
 */
public final class DocumentAnnotator {
    private final MrcEngine engine;
    private final MicroBatcher batcher;

    public DocumentAnnotator(MrcEngine engine, MicroBatcher batcher) {
        this.engine = engine;
        this.batcher = batcher;
    }

    public CompletableFuture<AnnotatedDocument> annotate(String title, String abstractText) {
        EncodedText t = engine.encoder().encode(title == null ? "" : title);
        EncodedText a = engine.encoder().encode(abstractText == null ? "" : abstractText);
        List<MrcWindow> windows = new ArrayList<>(t.windows());
        windows.addAll(a.windows());
        int split = t.windows().size();
        return batcher.submit(windows).thenApply(results -> {
            List<WindowLogits> logits = results.stream().map(WindowResult::logits).toList();
            List<AnnotatedDocument.FieldEntity> out = new ArrayList<>();
            for (Entity e : engine.decoder().decode(t, logits.subList(0, split))) {
                out.add(new AnnotatedDocument.FieldEntity(TextField.TITLE, e));
            }
            for (Entity e : engine.decoder().decode(a, logits.subList(split, logits.size()))) {
                out.add(new AnnotatedDocument.FieldEntity(TextField.ABSTRACT, e));
            }
            return new AnnotatedDocument(out, t.sentences().size() + a.sentences().size(), results);
        });
    }
}
