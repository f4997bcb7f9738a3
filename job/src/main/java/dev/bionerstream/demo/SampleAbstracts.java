package dev.bionerstream.demo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The bundled sample feeds, one JSON object per line with the gold spans under "gold" (ignored by
 * the job), written by model-export's {@code bioner_mrc.sample}: pseudo-abstracts built from the
 * BC5CDR test split (Li et al. 2016, CC BY 4.0, via cambridgeltl/MTL-Bioinformatics-2016), and
 * Spanish clinical-case excerpts from the PharmaCoNER test split (Gonzalez-Agirre et al. 2019, MIT,
 * via CongSun-dlut/PharmaCoNER), language {@code spa}; both given the spacing of published text by
 * the test tool {@code DetokenizedSamples}.
 */
public final class SampleAbstracts {
    public static final String RESOURCE = "/samples/abstracts.jsonl";
    public static final String SPANISH_RESOURCE = "/samples/abstracts-es.jsonl";

    private SampleAbstracts() {}

    /** The first {@code limit} English sample abstracts, as JSON text. */
    public static List<String> load(int limit) {
        return load(RESOURCE, limit);
    }

    /** The first {@code limit} lines of a sample resource, as JSON text. */
    public static List<String> load(String resource, int limit) {
        List<String> out = new ArrayList<>();
        try (InputStream in = SampleAbstracts.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("sample abstracts missing from the classpath: " + resource);
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = r.readLine(); line != null && out.size() < limit; line = r.readLine()) {
                if (!line.isBlank()) {
                    out.add(line);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}
