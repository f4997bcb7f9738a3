package dev.bionerstream.records;

import java.io.CharConversionException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.StandardCharsets;

/**
 * Strict UTF-8: invalid bytes, overlong forms and encoded surrogates are refused, where
 * {@code new String(bytes, UTF_8)} would turn them into U+FFFD without a word.
 */
final class StrictUtf8 {
    private StrictUtf8() {}

    /** A refusal is an {@link InvalidRecordException} whose reason starts with {@code reasonPrefix}. */
    static String decode(byte[] bytes, String reasonPrefix) throws InvalidRecordException {
        try {
            return decode(bytes, bytes.length);
        } catch (CharConversionException e) {
            throw new InvalidRecordException(reasonPrefix + e.getMessage(), e);
        }
    }

    /** The first {@code length} bytes; a refusal is an IOException, for readers that may throw only those. */
    static String decode(byte[] bytes, int length) throws CharConversionException {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder();
        ByteBuffer in = ByteBuffer.wrap(bytes, 0, length);
        CharBuffer out = CharBuffer.allocate(length);
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        if (result.isError()) {
            throw new CharConversionException(String.format(
                    "not valid UTF-8: byte 0x%02X at byte %d", bytes[in.position()] & 0xFF, in.position()));
        }
        return out.flip().toString();
    }
}
