package dev.bionerstream.kafka;

import java.io.CharConversionException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.StandardCharsets;

/** Unicode checks and repairs of the text fields of input records. */
public final class RecordText {
    private static final char REPLACEMENT = '\uFFFD';

    private RecordText() {}

    /**
     * Strict UTF-8: invalid bytes, overlong forms and encoded surrogates are refused, where
     * {@code new String(bytes, UTF_8)} would turn them into U+FFFD without a word.
     */
    public static String utf8(byte[] bytes, int offset, int length) throws CharConversionException {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder();
        ByteBuffer in = ByteBuffer.wrap(bytes, offset, length);
        CharBuffer out = CharBuffer.allocate(length);
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        if (result.isError()) {
            throw new CharConversionException(String.format(
                    "not valid UTF-8: byte 0x%02X at byte %d", bytes[in.position()] & 0xFF, in.position() - offset));
        }
        return out.flip().toString();
    }

    /**
     * Each unpaired UTF-16 surrogate -> U+FFFD. One char for one keeps entity offsets valid, and
     * the tokenizer never meets half a character (it failed with StringIndexOutOfBoundsException).
     */
    public static String repairSurrogates(String s) {
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

    public static boolean hasControlCharacter(String s) {
        return s.chars().anyMatch(Character::isISOControl);
    }

    public static boolean hasUnpairedSurrogate(String s) {
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
    public static boolean noText(String s) {
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
