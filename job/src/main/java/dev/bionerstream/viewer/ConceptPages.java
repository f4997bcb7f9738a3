package dev.bionerstream.viewer;

import java.util.Locale;

/** Where a reader follows a linked concept: its page at the source of its id. */
final class ConceptPages {
    private ConceptPages() {}

    /**
     * NCBI Gene's and NCBI Taxonomy's own pages, MeSH's browser for chemicals; for diseases CTD's page
     * of the MEDIC id (MeSH or OMIM), as CTD's terms ask of pages that show MEDIC data. Null for an
     * id of another prefix (a user's vocabulary).
     */
    static String of(String type, String curie) {
        int colon = curie.indexOf(':');
        String prefix = colon < 0 ? "" : curie.substring(0, colon);
        String local = curie.substring(colon + 1);
        if (type.equals("disease") && (prefix.equals("mesh") || prefix.equals("omim"))) {
            return "https://ctdbase.org/detail.go?type=disease&acc=" + prefix.toUpperCase(Locale.ROOT) + ":" + local;
        }
        return switch (prefix) {
            case "mesh" -> "https://meshb.nlm.nih.gov/record/ui?ui=" + local;
            case "ncbigene" -> "https://www.ncbi.nlm.nih.gov/gene/" + local;
            case "ncbitaxon" -> "https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?id=" + local;
            case "omim" -> "https://omim.org/entry/" + local;
            default -> null;
        };
    }
}
