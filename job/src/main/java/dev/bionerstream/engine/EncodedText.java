package dev.bionerstream.engine;

import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.features.WordPieces;
import dev.bionerstream.text.Sentence;
import java.util.List;

/**
 * A text ready for the model: its sentences, their word pieces (offsets relative to the sentence)
 * and every (sentence, type) window. {@code windowSentence[k]} is the sentence of window k.
 */
public record EncodedText(
        String text,
        List<Sentence> sentences,
        List<WordPieces> pieces,
        List<MrcWindow> windows,
        int[] windowSentence) {}
