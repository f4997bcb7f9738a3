package dev.bionerstream.features;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.djl.huggingface.tokenizers.jni.CharSpan;
import dev.bionerstream.nativelib.LibraryThread;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodType;
import java.util.Map;

/**
 * Word pieces with char offsets from the bundle's {@code tokenizer.json} (DJL's binding of the
 * HuggingFace Rust tokenizer, the library model-export's tokenizer is proven equal to).
 * Truncation and padding are off: windows and dynamic padding are the engine's job.
 */
public final class MrcTokenizer implements AutoCloseable {
    private final HuggingFaceTokenizer tokenizer;
    private final long clsId;
    private final long sepId;

    public MrcTokenizer(byte[] tokenizerJson) {
        try {
            tokenizer = (HuggingFaceTokenizer) LibraryThread.callStatic(
                    HuggingFaceTokenizer.class,
                    "newInstance",
                    MethodType.methodType(HuggingFaceTokenizer.class, InputStream.class, Map.class),
                    new ByteArrayInputStream(tokenizerJson),
                    Map.of("addSpecialTokens", "false", "truncation", "false", "padding", "false"));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read tokenizer.json", e);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("Cannot load the tokenizer: " + e, e);
        }
        clsId = tokenizer.encode("[CLS]", false, false).getIds()[0];
        sepId = tokenizer.encode("[SEP]", false, false).getIds()[0];
    }

    public WordPieces tokenize(String text) {
        Encoding enc = tokenizer.encode(text, false, false);
        CharSpan[] spans = enc.getCharTokenSpans();
        long[] ids = enc.getIds();
        int[] starts = new int[ids.length];
        int[] ends = new int[ids.length];
        boolean supplementary = text.codePoints().count() != text.length();
        for (int i = 0; i < ids.length; i++) {
            // The Rust library counts Unicode scalar values; Java strings count UTF-16 units.
            starts[i] = supplementary ? text.offsetByCodePoints(0, spans[i].getStart()) : spans[i].getStart();
            ends[i] = supplementary ? text.offsetByCodePoints(0, spans[i].getEnd()) : spans[i].getEnd();
        }
        return new WordPieces(ids, starts, ends);
    }

    public long[] ids(String text) {
        return tokenizer.encode(text, false, false).getIds();
    }

    public long clsId() {
        return clsId;
    }

    public long sepId() {
        return sepId;
    }

    @Override
    public void close() {
        tokenizer.close();
    }
}
