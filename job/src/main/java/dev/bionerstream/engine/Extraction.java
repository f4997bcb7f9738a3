package dev.bionerstream.engine;

import java.util.List;

/**
 * The engine's answer for a list of texts: per text, its entities (offsets into that text) and its
 * sentence count; and how each window was served (batch sizes, waits) for metrics.
 */
public record Extraction(List<List<Entity>> entities, List<Integer> sentences, List<WindowResult> windows) {
    public Extraction {
        entities = List.copyOf(entities);
        sentences = List.copyOf(sentences);
        windows = List.copyOf(windows);
    }
}
