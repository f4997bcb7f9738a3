package dev.bionerstream.features;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.model.ModelBundle;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class MrcTokenizerTest {
    static MrcTokenizer tokenizer;

    @BeforeAll
    static void open() {
        tokenizer = new MrcTokenizer(ModelBundle.loadDefault().tokenizerJson());
    }

    @AfterAll
    static void close() {
        tokenizer.close();
    }

    private static String[] surfaces(String text) {
        WordPieces p = tokenizer.tokenize(text);
        String[] out = new String[p.size()];
        for (int i = 0; i < p.size(); i++) {
            out[i] = text.substring(p.starts()[i], p.ends()[i]);
        }
        return out;
    }

    @Test
    void offsetsPointIntoTheOriginalTextThroughAccentsGreekAndOddSpacing() {
        assertThat(surfaces("Naïve  β-blocker\tuse")).contains("Naïve", "β", "-", "use");
        assertThat(surfaces("IL‑2 (5 µg/ml) in Müller cells")).contains("IL", "‑", "5", "µ", "/", "Müller");
        WordPieces p = tokenizer.tokenize("dobutamine");
        assertThat(p.size()).isGreaterThan(1); // several word pieces, contiguous
        assertThat(p.starts()[0]).isZero();
        assertThat(p.ends()[p.size() - 1]).isEqualTo("dobutamine".length());
    }

    @Test
    void offsetsCountUtf16UnitsAfterSupplementaryCharacters() {
        String text = "𝛼-synuclein and 🧪 aspirin";
        String[] s = surfaces(text);
        assertThat(s[s.length - 1]).isEqualTo("aspirin".substring("aspirin".length() - s[s.length - 1].length()));
        WordPieces p = tokenizer.tokenize(text);
        assertThat(p.ends()[p.size() - 1]).isEqualTo(text.length());
    }

    @Test
    void specialTokenIdsComeFromTheVocabulary() {
        assertThat(tokenizer.clsId()).isEqualTo(101);
        assertThat(tokenizer.sepId()).isEqualTo(102);
    }

    /**
     * Word-piece ids and offsets equal those model-export trained on (its own Python tokenizer),
     * for every sentence of the four corpora's test splits (fixture written by bioner_mrc.parity).
     */
    @Test
    void idsAndOffsetsEqualModelExportsOnEveryTestSentence() throws Exception {
        int n = 0;
        try (var in = getClass().getResourceAsStream("/parity/wordpiece-ids.tsv.gz");
                var r = new BufferedReader(new InputStreamReader(new GZIPInputStream(in), StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                String[] f = line.split("\t", -1);
                WordPieces p = tokenizer.tokenize(f[1]);
                long[] ids = f[2].isEmpty()
                        ? new long[0]
                        : Arrays.stream(f[2].split(" "))
                                .mapToLong(Long::parseLong)
                                .toArray();
                assertThat(p.ids()).as("%s: %s", f[0], f[1]).containsExactly(ids);
                String[] spans = f[3].isEmpty() ? new String[0] : f[3].split(" ");
                for (int i = 0; i < spans.length; i++) {
                    String expected = p.starts()[i] + ":" + p.ends()[i];
                    assertThat(spans[i]).as("%s piece %d of %s", f[0], i, f[1]).isEqualTo(expected);
                }
                n++;
            }
        }
        assertThat(n).isGreaterThan(17_000);
    }
}
