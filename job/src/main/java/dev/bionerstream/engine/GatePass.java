package dev.bionerstream.engine;

import dev.bionerstream.features.MrcWindow;
import java.util.ArrayList;
import java.util.List;

/**
 * The presence gate's pass over a list of encoded texts: its query-free windows ({@code owners[k]}
 * = text and sentence of window k), and from their results the texts with only the windows of the
 * (sentence, type) pairs the gate lets through.
 */
record GatePass(List<EncodedText> encoded, List<MrcWindow> windows, List<int[]> owners) {
    List<EncodedText> keep(List<WindowResult> results, PresenceGate gate, int[] presenceIndex, int types) {
        List<boolean[][]> asked = new ArrayList<>(encoded.size());
        for (EncodedText e : encoded) {
            asked.add(new boolean[e.sentences().size()][types]);
        }
        for (int k = 0; k < windows.size(); k++) {
            float[] presence = results.get(k).logits().presence();
            boolean[] sentence = asked.get(owners.get(k)[0])[owners.get(k)[1]];
            for (int t = 0; t < types; t++) {
                sentence[t] |= gate.asks(presence[presenceIndex[t]]);
            }
        }
        List<EncodedText> kept = new ArrayList<>(encoded.size());
        for (int i = 0; i < encoded.size(); i++) {
            kept.add(encoded.get(i).asking(asked.get(i)));
        }
        return kept;
    }
}
