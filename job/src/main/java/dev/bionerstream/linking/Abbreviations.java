package dev.bionerstream.linking;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The abbreviations a document defines, "long form (SF)", found as Schwartz and Hearst (2003) do:
 * the short form's characters matched right to left against the words before the parenthesis. A
 * short form that a text defines twice keeps its first definition.
 */
public final class Abbreviations {
    private static final Pattern ASIDE = Pattern.compile(";|,\\s");

    private Abbreviations() {}

    /** A definition: the long form, and where it starts in the text. */
    public record Definition(String longForm, int start) {}

    /** Short form -> its definition, for every definition in {@code text}. */
    public static Map<String, Definition> in(String text) {
        Map<String, Definition> found = new HashMap<>();
        int open = text.indexOf('(');
        while (open >= 0) {
            int close = text.indexOf(')', open + 1);
            if (close < 0) {
                break;
            }
            String shortForm = text.substring(open + 1, close).strip();
            // "(CH; 10% O2)", "(CH, 10% O2)": the short form, then what the authors add about it; a
            // comma without a space is the name's own ("2,4-D")
            Matcher aside = ASIDE.matcher(shortForm);
            if (aside.find() && aside.start() > 0) {
                shortForm = shortForm.substring(0, aside.start()).strip();
            }
            if (plausibleShortForm(shortForm)) {
                String before = text.substring(sentenceStart(text, open), open).strip();
                String longForm = longForm(
                        shortForm, lastWords(before, Math.min(shortForm.length() + 5, shortForm.length() * 2)));
                if (longForm != null) {
                    found.putIfAbsent(shortForm, new Definition(longForm, text.lastIndexOf(longForm, open)));
                }
            }
            open = text.indexOf('(', open + 1);
        }
        return found;
    }

    private static boolean plausibleShortForm(String s) {
        if (s.length() < 2 || s.length() > 10 || s.split("\\s+").length > 2) {
            return false;
        }
        return Character.isLetterOrDigit(s.charAt(0)) && s.chars().anyMatch(Character::isLetter);
    }

    private static int sentenceStart(String text, int before) {
        int start = 0;
        for (int i = before - 1; i >= 0; i--) {
            char c = text.charAt(i);
            if (c == '(' || c == ')' || c == ';' || (c == '.' && i + 1 < text.length() && text.charAt(i + 1) == ' ')) {
                start = i + 1;
                break;
            }
        }
        return start;
    }

    private static String lastWords(String s, int n) {
        String[] words = s.split("\\s+");
        int from = Math.max(0, words.length - n);
        return String.join(" ", java.util.Arrays.copyOfRange(words, from, words.length));
    }

    /** The shortest tail of {@code candidate} whose letters spell {@code shortForm}, or null. */
    static String longForm(String shortForm, String candidate) {
        int s = shortForm.length() - 1;
        int l = candidate.length() - 1;
        while (s >= 0) {
            char c = Character.toLowerCase(shortForm.charAt(s));
            if (!Character.isLetterOrDigit(c)) {
                s--;
                continue;
            }
            while (l >= 0
                    && (Character.toLowerCase(candidate.charAt(l)) != c
                            || (s == 0 && l > 0 && Character.isLetterOrDigit(candidate.charAt(l - 1))))) {
                l--;
            }
            if (l < 0) {
                return null;
            }
            l--;
            s--;
        }
        String longForm = candidate.substring(candidate.lastIndexOf(' ', l) + 1);
        return longForm.length() > shortForm.length() ? longForm : null;
    }
}
