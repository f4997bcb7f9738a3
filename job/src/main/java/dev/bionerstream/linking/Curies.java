package dev.bionerstream.linking;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Concept ids as annotated corpora write them, turned into Bioregistry CURIEs: BC5CDR's and
 * NCBI-disease's {@code D009270}, {@code MESH:D009270} and {@code OMIM:114480}, BioRED's bare NCBI
 * Gene and Taxonomy numbers, GNormPlus's {@code 172659(Tax:6239)}.
 */
public final class Curies {
    private static final Pattern TAXON_SUFFIX = Pattern.compile("\\(Tax:\\d+\\)\\s*$");

    private Curies() {}

    /**
     * The CURIEs of a corpus id field of a mention of {@code type}; several ids are separated by
     * {@code |}, {@code +}, {@code ,} or {@code ;}. Empty for none ({@code -}, {@code -1}, blank).
     */
    public static List<String> of(String type, String field) {
        List<String> ids = new ArrayList<>();
        for (String raw : field.split("[|+,;]")) {
            // GNormPlus writes a non-human gene with its species: "172659(Tax:6239)"
            String id = TAXON_SUFFIX.matcher(raw).replaceFirst("").strip();
            if (id.isEmpty() || id.equals("-") || id.equals("-1")) {
                continue;
            }
            ids.add(curie(type, id));
        }
        return ids;
    }

    private static String curie(String type, String id) {
        int colon = id.indexOf(':');
        if (colon > 0) {
            return id.substring(0, colon).toLowerCase(Locale.ROOT) + id.substring(colon);
        }
        if (!id.isEmpty() && Character.isDigit(id.charAt(0))) {
            return switch (type) {
                case "gene" -> "ncbigene:" + id;
                case "species" -> "ncbitaxon:" + id;
                default -> id;
            };
        }
        return "mesh:" + id;
    }
}
