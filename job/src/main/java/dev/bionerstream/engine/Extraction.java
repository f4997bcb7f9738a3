package dev.bionerstream.engine;

import java.util.List;

/**
 * The engine's answer for a list of texts: per text, its entities (offsets into that text) and its
 * sentence count; how each window was served (batch sizes, waits) for metrics, the presence gate's
 * passes included; and how many (sentence, type) passes the gate saved.
 */
public record Extraction(
        List<List<Entity>> entities, List<Integer> sentences, List<WindowResult> windows, int skippedPasses) {
    public Extraction {
        entities = List.copyOf(entities);
        sentences = List.copyOf(sentences);
        windows = List.copyOf(windows);
    }
}
