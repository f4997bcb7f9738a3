package dev.bionerstream.engine;

import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.features.WordPieces;
import dev.bionerstream.text.Sentence;
import java.util.ArrayList;
import java.util.List;

/**
 * A text ready for the model: its sentences, their word pieces (offsets relative to the sentence)
 * and every (sentence, type) window. {@code windowSentence[k]} is the sentence of window k.
 */
public record EncodedText(
        String text, List<Sentence> sentences, List<WordPieces> pieces, List<MrcWindow> windows, int[] windowSentence) {

    /** The same text with only the windows of the (sentence, type) pairs {@code asked[sentence][type]}. */
    public EncodedText asking(boolean[][] asked) {
        List<MrcWindow> kept = new ArrayList<>();
        List<Integer> owner = new ArrayList<>();
        for (int k = 0; k < windows.size(); k++) {
            if (asked[windowSentence[k]][windows.get(k).typeIndex()]) {
                kept.add(windows.get(k));
                owner.add(windowSentence[k]);
            }
        }
        return new EncodedText(
                text,
                sentences,
                pieces,
                kept,
                owner.stream().mapToInt(Integer::intValue).toArray());
    }
}
