package dev.bionerstream.records;

/** Unicode checks and repairs of the text fields of input records. */
final class RecordText {
    private static final char REPLACEMENT = '\uFFFD';

    private RecordText() {}

    /**
     * Each unpaired UTF-16 surrogate -> U+FFFD. One char for one keeps entity offsets valid, and
     * the tokenizer never meets half a character (it failed with StringIndexOutOfBoundsException).
     */
    static String repairSurrogates(String s) {
        if (s == null) {
            return null;
        }
        char[] repaired = null;
        for (int i = 0; i < s.length(); i++) {
            if (unpaired(s, i)) {
                if (repaired == null) {
                    repaired = s.toCharArray();
                }
                repaired[i] = REPLACEMENT;
            }
        }
        return repaired == null ? s : new String(repaired);
    }

    static boolean hasControlCharacter(String s) {
        return s.chars().anyMatch(Character::isISOControl);
    }

    static boolean hasUnpairedSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (unpaired(s, i)) {
                return true;
            }
        }
        return false;
    }

    private static boolean unpaired(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 == s.length() || !Character.isLowSurrogate(s.charAt(i + 1));
        }
        return Character.isLowSurrogate(c) && (i == 0 || !Character.isHighSurrogate(s.charAt(i - 1)));
    }

    /**
     * Nothing but whitespace, format and control characters. {@link String#isBlank} misses the
     * no-break spaces (U+00A0, U+2007, U+202F) and zero-width ones (U+200B, U+FEFF).
     */
    static boolean noText(String s) {
        return s == null || s.codePoints().allMatch(RecordText::invisible);
    }

    private static boolean invisible(int cp) {
        int type = Character.getType(cp);
        return Character.isWhitespace(cp)
                || Character.isSpaceChar(cp)
                || type == Character.FORMAT
                || type == Character.CONTROL;
    }
}
