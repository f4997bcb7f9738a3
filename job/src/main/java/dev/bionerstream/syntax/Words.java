package dev.bionerstream.syntax;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Splits a sentence into the words the annotator tags: runs of letters, marks and digits, and every
 * other visible character alone. This is the BERT pre-tokenizer's split (whitespace, then each
 * punctuation character), so every word piece falls inside exactly one word.
 */
public final class Words {
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{M}\\p{N}]+|[^\\s\\p{L}\\p{M}\\p{N}]");

    private Words() {}

    /** {@code [start, end)} character spans of the words of {@code sentence}. */
    public static List<int[]> spans(String sentence) {
        List<int[]> out = new ArrayList<>();
        Matcher m = WORD.matcher(sentence);
        while (m.find()) {
            out.add(new int[] {m.start(), m.end()});
        }
        return out;
    }
}
