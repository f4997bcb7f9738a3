package dev.bionerstream.text;

import java.util.regex.Pattern;

/**
 * Restores published-text spacing to corpus-tokenized text, whose tokens are separated by single
 * spaces ("a 56 - year - old woman", "( 2 . 5 mcg / kg per min )", "5 - HT 2A / 2C receptor"), by
 * removing spaces only: no character is added, changed or moved, so every offset into the
 * tokenized text maps onto the detokenized one ({@link Result#map}). The rules, each for the gap
 * between two tokens:
 *
 * <ul>
 *   <li>no space before {@code , . ; : ) ] } % ? !}, none after {@code ( [ {};
 *   <li>hyphens and slashes join their neighbours: "56-year-old", "mcg/kg", "and/or" ("2.6 +/- 1.3"
 *       keeps the space after "+/-", "pre- and postsynaptic" the one before a conjunction);
 *   <li>numbers: "2.5" (a period between digits), "P = .001" (a period before digits after an
 *       operator), "1:4" (a colon between digits), "1,000" (a comma before exactly three digits
 *       after one to three digits, unless the numbers are a list: "30, 100, and 300"); in Spanish
 *       ({@code spa}) the comma between digits is the decimal comma: "2,2 ng/ml";
 *   <li>"i.c.v.", "e.g.": a period between single lower-case letters;
 *   <li>"Parkinson's", "Graves' disease", "5'-": an apostrophe or prime after a word, and before a
 *       lone "s";
 *   <li>quotation marks (double, and single ones that are no apostrophe) pair up: an opening one
 *       takes no space after, a closing one none before;
 *   <li>receptor subtypes after a hyphenated name: "5-HT2A", "5-HT2C";
 *   <li>charges and superscripts: "Ca2+", "CD4+ T-cell", "mg/m(2)", "K(+)", "Ca(2+)";
 *   <li>a minus sign after an operator or punctuation keeps its space before: "t(33) = -4.29".
 * </ul>
 *
 * Everything else keeps its space, so "(n = 12)", "p < 0.05" and "> or = 132" stay readable.
 */
public final class Detokenizer {
    private static final Pattern CLOSERS = Pattern.compile("[,.;:)\\]}%?!]");
    private static final Pattern OPENERS = Pattern.compile("[(\\[{]");
    private static final Pattern OPERATORS = Pattern.compile("[=<>(\\[~]");
    private static final Pattern DIGITS = Pattern.compile("\\d+");
    private static final Pattern ONE_TO_THREE_DIGITS = Pattern.compile("\\d{1,3}");
    private static final Pattern THREE_DIGITS = Pattern.compile("\\d{3}");
    private static final Pattern LOWER_LETTER = Pattern.compile("\\p{Ll}");
    private static final Pattern UPPER_NAME = Pattern.compile("\\p{Lu}{2,}");
    private static final Pattern SUBTYPE = Pattern.compile("\\d\\p{Lu}");
    private static final Pattern WORD_END = Pattern.compile(".*[\\p{L}\\p{N}]");
    private static final Pattern CONJUNCTIONS = Pattern.compile("and|or|y|o");
    private static final Pattern LIST_WORDS = Pattern.compile(",|and|or|y|o");
    private static final Pattern MINUS_AFTER = Pattern.compile("[=<>~.,;:]");
    private static final Pattern CHARGED = Pattern.compile("\\p{L}+\\d+");
    private static final Pattern CHARGE = Pattern.compile("[+-]|\\d[+-]|\\d");

    private final boolean decimalComma;

    private Detokenizer(boolean decimalComma) {
        this.decimalComma = decimalComma;
    }

    /** The rules for a language (ISO 639-2/3, as in the records' {@code language}). */
    public static Detokenizer forLanguage(String language) {
        return new Detokenizer("spa".equals(language) || "es".equals(language));
    }

    /** Detokenized text with the map from the tokenized text's offsets. */
    public record Result(String text, int[] removedBefore) {
        /** Where the character at (or the boundary before) {@code offset} of the tokenized text is now. */
        public int map(int offset) {
            return offset - removedBefore[offset];
        }
    }

    /** The detokenized text of {@code tokenized}. */
    public String apply(String tokenized) {
        return detokenize(tokenized).text();
    }

    /** The detokenized text of {@code tokenized}, with the offset map. */
    public Result detokenize(String tokenized) {
        String[] t = tokenized.split(" ", -1);
        boolean[] join = new boolean[Math.max(0, t.length - 1)];
        int quotes = 0;
        int singleQuotes = 0;
        for (int i = 0; i < t.length; i++) {
            boolean quote = t[i].equals("\"");
            boolean singleQuote = t[i].equals("'") && !apostrophe(t, i);
            if (quote || singleQuote) {
                int n = quote ? ++quotes : ++singleQuotes;
                if (n % 2 == 1 && i < join.length) {
                    join[i] = true; // opening: none after
                } else if (n % 2 == 0 && i > 0) {
                    join[i - 1] = true; // closing: none before
                }
            }
        }
        for (int i = 0; i < join.length; i++) {
            join[i] |= joins(t, i);
        }
        StringBuilder out = new StringBuilder(tokenized.length());
        int[] removedBefore = new int[tokenized.length() + 1];
        int removed = 0;
        int pos = 0;
        for (int i = 0; i < t.length; i++) {
            out.append(t[i]);
            for (int k = 0; k < t[i].length(); k++) {
                removedBefore[pos++] = removed;
            }
            if (i < join.length) {
                removedBefore[pos++] = removed;
                if (join[i]) {
                    removed++;
                } else {
                    out.append(' ');
                }
            }
        }
        removedBefore[pos] = removed;
        return new Result(out.toString(), removedBefore);
    }

    /** Whether the space between token {@code i} and token {@code i + 1} goes. */
    private boolean joins(String[] t, int i) {
        String prev = at(t, i - 1);
        String a = t[i];
        String b = t[i + 1];
        String next = at(t, i + 2);
        if (a.isEmpty() || b.isEmpty()) {
            return false;
        }
        // ". 001" after "=": the period leads the number and keeps its space before
        if (b.equals(".") && OPERATORS.matcher(a).matches() && startsWithDigit(next)) {
            return false;
        }
        if (a.equals(".")
                && startsWithDigit(b)
                && (endsWithDigit(prev) || OPERATORS.matcher(prev).matches())) {
            return true; // 2.5, 2x1.8x1.5cm, = .001
        }
        if (a.equals(":") && endsWithDigit(prev) && startsWithDigit(b)) {
            return true; // 1:4
        }
        if (a.equals(",") && numberAfterComma(t, i)) {
            return true;
        }
        if (a.equals(".")
                && LOWER_LETTER.matcher(prev).matches()
                && LOWER_LETTER.matcher(b).matches()) {
            return true; // i.c.v., e.g.
        }
        if (CLOSERS.matcher(b).matches() || OPENERS.matcher(a).matches()) {
            return true;
        }
        if (b.equals("-") && MINUS_AFTER.matcher(a).matches() && startsWithDigit(next)) {
            return false; // t(33) = -4.29, vs. -15.96
        }
        if (b.equals("+") && CHARGED.matcher(a).matches() && !startsWithDigit(next)) {
            return true; // Ca2+, CD4+ T-cells
        }
        if (a.equals("-") && CONJUNCTIONS.matcher(b).matches()) {
            return false; // pre- and postsynaptic
        }
        if (a.equals("-") && prev.equals("/") && at(t, i - 2).equals("+")) {
            return false; // 2.6 +/- 1.3
        }
        if (a.equals("-") || b.equals("-") || a.equals("/") || b.equals("/")) {
            return true;
        }
        if (b.equals("'") && apostrophe(t, i + 1)) {
            return true; // Graves' disease, 5'-
        }
        if (a.equals("'") && b.equals("s") && apostrophe(t, i)) {
            return true; // Parkinson's
        }
        if (prev.equals("-")
                && UPPER_NAME.matcher(a).matches()
                && SUBTYPE.matcher(b).matches()) {
            return true; // 5-HT2A
        }
        if (b.equals("(") && at(t, i + 3).equals(")")) {
            // mg/m(2), K(+), Ca(2+)
            boolean unitPower = prev.equals("/") && DIGITS.matcher(next).matches();
            boolean charge = WORD_END.matcher(a).matches() && (next.equals("+") || next.equals("-"));
            return unitPower || charge;
        }
        if (b.equals("(") && at(t, i + 4).equals(")") && at(t, i + 3).equals("+")) {
            return WORD_END.matcher(a).matches() && CHARGE.matcher(next).matches(); // Ca(2 +) -> Ca(2+)
        }
        return b.equals("+")
                && next.equals(")")
                && at(t, i - 1).equals("(")
                && DIGITS.matcher(a).matches();
    }

    /** "1,000" (or Spanish "2,2"), but not a list of numbers such as "30, 100, and 300". */
    private boolean numberAfterComma(String[] t, int i) {
        String left = at(t, i - 1);
        String right = at(t, i + 1);
        String before = at(t, i - 2);
        String after = at(t, i + 2);
        if (before.equals(",")
                || before.equals(".")
                || before.equals("(")
                || LIST_WORDS.matcher(after).matches()) {
            return false;
        }
        if (decimalComma) {
            return DIGITS.matcher(left).matches() && DIGITS.matcher(right).matches();
        }
        return ONE_TO_THREE_DIGITS.matcher(left).matches()
                && THREE_DIGITS.matcher(right).matches();
    }

    /**
     * Whether the single quote at {@code i} is an apostrophe or a prime ("Parkinson ' s", "Graves '
     * disease", "5 ' -"), not a quotation mark.
     */
    private static boolean apostrophe(String[] t, int i) {
        String before = at(t, i - 1);
        return WORD_END.matcher(before).matches()
                && (at(t, i + 1).equals("s") || before.endsWith("s") || endsWithDigit(before));
    }

    private static String at(String[] t, int i) {
        return i >= 0 && i < t.length ? t[i] : "";
    }

    private static boolean startsWithDigit(String s) {
        return !s.isEmpty() && Character.isDigit(s.charAt(0));
    }

    private static boolean endsWithDigit(String s) {
        return !s.isEmpty() && Character.isDigit(s.charAt(s.length() - 1));
    }
}
