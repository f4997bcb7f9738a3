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
 * The bundled sample feed: pseudo-abstracts built from the BC5CDR test split (Li et al. 2016,
 * CC BY 4.0, via cambridgeltl/MTL-Bioinformatics-2016), one JSON object per line with the gold
 * spans under "gold" (ignored by the job). Written by model-export's {@code bioner_mrc.sample}.
 */
public final class SampleAbstracts {
    public static final String RESOURCE = "/samples/abstracts.jsonl";

    private SampleAbstracts() {}

    /** The first {@code limit} lines, as JSON text. */
    public static List<String> load(int limit) {
        List<String> out = new ArrayList<>();
        try (InputStream in = SampleAbstracts.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("sample abstracts missing from the classpath: " + RESOURCE);
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
