package dev.bionerstream.linking;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The concepts a coordinated mention names: "breast and ovarian cancer" is "breast cancer" and
 * "ovarian cancer"; "type 1 and type 2 diabetes" is "type 1 diabetes" and "type 2 diabetes". A
 * conjunct shorter than the last one borrows the last one's trailing words.
 */
public final class CompositeMention {
    private static final Pattern COORDINATION =
            Pattern.compile("\\s*,?\\s+(?:and/or|and|or|nor)\\s+|\\s*,\\s+|(?<=\\p{L})/(?=\\p{L})");

    private CompositeMention() {}

    /** The parts of a coordinated mention; empty when it coordinates nothing. */
    public static List<String> parts(String mention) {
        String[] conjuncts = COORDINATION.split(mention.strip());
        if (conjuncts.length < 2) {
            return List.of();
        }
        String[] last = conjuncts[conjuncts.length - 1].split("\\s+");
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < conjuncts.length; i++) {
            String part = conjuncts[i].strip();
            if (part.isEmpty()) {
                return List.of();
            }
            int words = part.split("\\s+").length;
            if (i < conjuncts.length - 1 && words < last.length) {
                part = part + " " + String.join(" ", java.util.Arrays.copyOfRange(last, words, last.length));
            }
            parts.add(part);
        }
        return parts;
    }
}
