package dev.bionerstream.kafka;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;

/**
 * The output records' schemas as the release before linking wrote them ({@code
 * schemas-before-linking/} in the jar), parsed once: today's records are those with fields appended.
 */
final class EarlierSchemas {
    private static final String DIR = "schemas-before-linking/";
    /** In the order they parse: DocumentEntities' uses the TextField that EntityEvent's defines. */
    private static final List<String> RECORDS = List.of("EntityEvent", "DocumentEntities");

    private static final Map<String, Schema> BY_NAME = parse();

    private EarlierSchemas() {}

    /** The earlier schema of the record named {@code name}, or null if it has not changed since. */
    static Schema of(String name) {
        return BY_NAME.get(name);
    }

    private static Map<String, Schema> parse() {
        Schema.Parser parser = new Schema.Parser();
        Map<String, Schema> out = new HashMap<>();
        for (String record : RECORDS) {
            try (InputStream in = EarlierSchemas.class.getClassLoader().getResourceAsStream(DIR + record + ".avsc")) {
                out.put(record, parser.parse(in));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return Map.copyOf(out);
    }
}
