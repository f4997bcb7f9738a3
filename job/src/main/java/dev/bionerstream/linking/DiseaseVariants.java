package dev.bionerstream.linking;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The other ways a disease or phenotype mention may be written that the vocabulary has, tried when
 * neither its name nor its nearest names found a concept (the multi-pass sieve of D'Souza and Ng,
 * 2015, in three passes): an abbreviation the document defines written out inside the mention
 * ("congenital DM" where DM is myotonic dystrophy; an organ's, "LV dysfunction", also undefined), an
 * adjective read as its noun ("GH-deficient": GH deficiency, "injured liver": liver injury, "hyper
 * locomotion": hyperlocomotion), then the leading modifiers dropped ("primary cutaneous large B-cell
 * lymphoma": large B-cell lymphoma, then B-cell lymphoma). Each variant is looked up exactly; the
 * first that names a concept is taken. Coordinated and negated names keep their words ("non-familial
 * cancers" is not "familial cancers").
 */
final class DiseaseVariants {
    private DiseaseVariants() {}

    /** An abbreviation in a mention as written: two to six capitals or digits, starting with a capital. */
    private static final Pattern ABBREVIATION = Pattern.compile("\\b[A-Z][A-Z0-9]{1,5}\\b");

    /**
     * Organs that papers abbreviate without defining them ("LV dysfunction", "GI bleeding"), written
     * out where the document defines the abbreviation as nothing else.
     */
    private static final Map<String, String> ORGANS = Map.of(
            "LV", "left ventricular",
            "RV", "right ventricular",
            "GI", "gastrointestinal",
            "CNS", "central nervous system",
            "PNS", "peripheral nervous system");

    private static final List<Rewrite> ADJECTIVES = List.of(
            new Rewrite("^(.+) deficient$", "$1 deficiency"),
            new Rewrite("^injured (.+)$", "$1 injury"),
            new Rewrite("^damaged (.+)$", "$1 damage"),
            new Rewrite("\\b(hyper|hypo) (\\S)", "$1$2"));

    /** A coordinated or negated key: dropping its first words would change what it names. */
    private static final Pattern NOT_DROPPED = Pattern.compile("\\b(and|or|non|not|without|no)\\b");

    /**
     * The keys to try for {@code name}, in order, without its own key.
     *
     * @param abbreviations the document's definitions, by short form
     */
    static List<String> of(String name, Map<String, Abbreviations.Definition> abbreviations) {
        String key = NameKey.of(name);
        Set<String> written = new LinkedHashSet<>();
        written.add(key);
        String expanded = expand(name, abbreviations);
        if (expanded != null) {
            written.add(expanded);
        }
        Set<String> variants = new LinkedHashSet<>(written);
        for (String w : written) {
            for (Rewrite r : ADJECTIVES) {
                variants.add(r.apply(w));
            }
        }
        for (String v : List.copyOf(variants)) {
            if (NOT_DROPPED.matcher(v).find()) {
                continue;
            }
            String[] words = v.split(" ");
            for (int drop = 1; words.length - drop >= 2; drop++) {
                variants.add(String.join(" ", List.of(words).subList(drop, words.length)));
            }
        }
        variants.remove(key);
        return List.copyOf(variants);
    }

    /**
     * The key of {@code name} with the abbreviations the document defines, else the organs', written
     * out; null if none.
     */
    private static String expand(String name, Map<String, Abbreviations.Definition> abbreviations) {
        Matcher m = ABBREVIATION.matcher(name);
        StringBuilder out = new StringBuilder();
        boolean any = false;
        while (m.find()) {
            Abbreviations.Definition d = abbreviations.get(m.group());
            String written = d == null ? ORGANS.get(m.group()) : d.longForm();
            any |= written != null;
            m.appendReplacement(out, Matcher.quoteReplacement(written == null ? m.group() : written));
        }
        m.appendTail(out);
        return any ? NameKey.of(out.toString()) : null;
    }

    private record Rewrite(Pattern pattern, String replacement) {
        Rewrite(String regex, String replacement) {
            this(Pattern.compile(regex), replacement);
        }

        String apply(String key) {
            return pattern.matcher(key).replaceAll(replacement);
        }
    }
}
