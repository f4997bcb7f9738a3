package dev.bionerstream.linking;

import java.text.Normalizer;
import java.util.Locale;

/**
 * The lookup key of a name: what "TNF-α", "tnf alpha" and "TNF Alpha" have in common. Accents
 * dropped, Greek letters spelled out, lower case, every run of other characters one space, letters
 * and digits split apart ("IL2" and "IL-2" meet), each word singular ("seizures", "mice" stay apart
 * from "mouse": only a regular -s or -ies). Vocabulary names and mentions go through the same key,
 * so a rule that is crude for English is still consistent for lookup.
 */
public final class NameKey {
    private NameKey() {}

    private static final String[] GREEK = {
        "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu", "nu",
        "xi", "omicron", "pi", "rho", "sigma", "sigma", "tau", "upsilon", "phi", "chi", "psi", "omega"
    };

    public static String of(String name) {
        String s = (isAscii(name) ? name : Normalizer.normalize(name, Normalizer.Form.NFKD)).toLowerCase(Locale.ROOT);
        StringBuilder out = new StringBuilder(s.length() + 8);
        int wordStart = 0;
        int kind = 0; // of the previous character: 0 separator, 1 letter, 2 digit
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            int k;
            String greek = null;
            if (c >= 'α' && c <= 'ω') {
                greek = GREEK[c - 'α'];
                k = 1;
            } else if (Character.isLetter(c)) {
                k = 1;
            } else if (Character.isDigit(c)) {
                k = 2;
            } else if (Character.getType(c) == Character.NON_SPACING_MARK) {
                continue;
            } else {
                k = 0;
            }
            boolean newWord = k != 0 && (kind != k || greek != null);
            if (newWord && out.length() > 0) {
                wordStart = endWord(out, wordStart);
                out.append(' ');
                wordStart = out.length();
            }
            if (greek != null) {
                out.append(greek);
                k = 0; // a Greek letter is a word of its own: "α1" is "alpha 1"
            } else if (k != 0) {
                out.append(c);
            }
            kind = k;
        }
        endWord(out, wordStart);
        int end = out.length();
        while (end > 0 && out.charAt(end - 1) == ' ') {
            end--;
        }
        return out.substring(0, end);
    }

    /**
     * A key with its one-letter words a, b, g, d and k read as the Greek letters they often stand for
     * in text that lost its Greek ("b-catenin", "TNF-a"); the key itself if it has none.
     */
    public static String greekSpelledOut(String key) {
        String[] words = key.split(" ");
        boolean changed = false;
        for (int i = 0; i < words.length; i++) {
            String greek =
                    switch (words[i]) {
                        case "a" -> "alpha";
                        case "b" -> "beta";
                        case "g" -> "gamma";
                        case "d" -> "delta";
                        case "k" -> "kappa";
                        default -> null;
                    };
            if (greek != null) {
                words[i] = greek;
                changed = true;
            }
        }
        return changed ? String.join(" ", words) : key;
    }

    private static boolean isAscii(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) > 127) {
                return false;
            }
        }
        return true;
    }

    /** Greek letters written onto the word before them: "PKCalpha", "TGFbeta", "IFNgamma". */
    private static final String[] GLUED_GREEK = {"alpha", "beta", "gamma", "delta", "kappa"};

    /**
     * Makes the word that starts at {@code start} singular and parts a Greek letter glued to its end
     * ("pkcalpha" is "pkc alpha", as "PKC-alpha" is); returns where the next word may start.
     */
    private static int endWord(StringBuilder out, int start) {
        singular(out, start);
        int end = out.length();
        for (String greek : GLUED_GREEK) {
            int at = end - greek.length();
            if (at - start >= 2 && out.indexOf(greek, at) == at) {
                out.insert(at, ' ');
                break;
            }
        }
        return out.length();
    }

    private static void singular(StringBuilder out, int start) {
        int end = out.length();
        int length = end - start;
        if (length > 4 && out.charAt(end - 1) == 's' && out.charAt(end - 2) == 'e' && out.charAt(end - 3) == 'i') {
            out.setLength(end - 3);
            out.append('y');
        } else if (length > 3 && out.charAt(end - 1) == 's' && Character.isLetter(out.charAt(end - 2))) {
            char before = out.charAt(end - 2);
            if (before != 's' && before != 'u' && before != 'i') {
                out.setLength(end - 1);
            }
        }
    }
}
