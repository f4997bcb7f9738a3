package dev.bionerstream.serving;

import java.util.Locale;
import java.util.Map;

/**
 * Language codes as one key: ISO 639-2/T, the three letters Java's {@link Locale} knows. Feeds
 * use all three forms: "es" (ISO 639-1), "spa" (639-2), and PubMed's bibliographic codes ("ger",
 * "fre", "chi": 639-2/B), so all map to the same key.
 */
public final class Languages {
    /** The ISO 639-2 codes whose bibliographic (B) form differs from the terminology (T) form. */
    private static final Map<String, String> BIBLIOGRAPHIC = Map.ofEntries(
            Map.entry("alb", "sqi"),
            Map.entry("arm", "hye"),
            Map.entry("baq", "eus"),
            Map.entry("bur", "mya"),
            Map.entry("chi", "zho"),
            Map.entry("cze", "ces"),
            Map.entry("dut", "nld"),
            Map.entry("fre", "fra"),
            Map.entry("geo", "kat"),
            Map.entry("ger", "deu"),
            Map.entry("gre", "ell"),
            Map.entry("ice", "isl"),
            Map.entry("mac", "mkd"),
            Map.entry("mao", "mri"),
            Map.entry("may", "msa"),
            Map.entry("per", "fas"),
            Map.entry("rum", "ron"),
            Map.entry("slo", "slk"),
            Map.entry("tib", "bod"),
            Map.entry("wel", "cym"));

    private Languages() {}

    /** The ISO 639-2/T code of {@code code}, lower case; null for null or blank; unknown codes as given. */
    public static String key(String code) {
        if (code == null || code.isBlank()) {
            return null;
        }
        String c = code.trim().toLowerCase(Locale.ROOT);
        if (c.length() == 2) {
            try {
                return new Locale(c).getISO3Language();
            } catch (java.util.MissingResourceException e) {
                return c;
            }
        }
        return BIBLIOGRAPHIC.getOrDefault(c, c);
    }
}
