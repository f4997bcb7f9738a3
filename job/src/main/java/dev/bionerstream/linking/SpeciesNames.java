package dev.bionerstream.linking;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The species a text names, found as LINNAEUS and SR4GN find them: every run of words that is a name
 * of the species vocabulary ("Saccharomyces cerevisiae", "S. cerevisiae", "yeast", "mice", "HeLa
 * cells"), the longest at each place; plus human chromosome bands ("13q21", "chromosome 17q21.3"),
 * which only human genetics writes so. Independent of what the model found, so a gene's species has
 * the same evidence in the job, on gold mentions and in a corpus that annotates no species.
 */
final class SpeciesNames {
    /** A species named at {@code [start, end)} of the text. */
    record Named(int start, int end, int taxon) {}

    /** Longest name looked for, in words ("Human immunodeficiency virus type 1" is five). */
    private static final int MAX_WORDS = 6;

    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");
    /** Between two words of one name: spaces, a hyphen, an abbreviation's full stop ("E. coli"). */
    private static final Pattern JOINER = Pattern.compile("[\\s.-]{1,2}");

    /** Not after a letter, digit or hyphen: "IL-12p40" is a protein, not band 12p40. */
    private static final Pattern HUMAN_BAND = Pattern.compile(
            "(?<![\\p{L}\\p{N}-])(?:[1-9]|1\\d|2[0-2]|X|Y)[pq]\\d{1,2}(?:\\.\\d{1,2})?(?![\\p{L}\\p{N}])");
    /**
     * LINNAEUS names cell lines by their cells ("HeLa cells"); a line named by one or two characters
     * ("B cells", "SC cells") is as often a kind of cell, which says nothing of the species.
     */
    private static final Pattern SHORT_CELL_LINE =
            Pattern.compile("[\\p{L}\\p{N}]{1,2}[\\s-]*(?:cells?|cell-?lines?)", Pattern.CASE_INSENSITIVE);
    /**
     * A gene's name, not the species studied: "RNA polymerase II associated factor, homolog
     * (Saccharomyces cerevisiae)".
     */
    private static final Pattern NAMED_AFTER = Pattern.compile("homologu?e?s?\\s*\\(\\s*$", Pattern.CASE_INSENSITIVE);
    /**
     * A method or a product, not the species studied: "a yeast two-hybrid screen" finds human
     * proteins, "tobacco smokers" are people.
     */
    private static final Pattern METHOD_AFTER = Pattern.compile(
            "^[\\s-]+(?:(?:based\\s+)?(?:one|two|three)[\\s-]hybrid|smok|chew|use\\b|users?\\b)",
            Pattern.CASE_INSENSITIVE);
    /** Species whose genes are studied where they are expressed: "overexpressed in mice" is a transgenic mouse. */
    private static final Set<Integer> STUDIED_IN_VIVO =
            Set.of(EntityLinker.HUMAN, EntityLinker.MOUSE, EntityLinker.RAT);
    /** An expression host, not the species studied: "GN-2 expressed in Escherichia coli". */
    private static final Pattern EXPRESSED_IN_BEFORE = Pattern.compile(
            "\\b(?:(?:over)?expressed|produced|purified|synthesi[sz]ed)\\s+(?:in|from|by)\\s+(?:the\\s+)?(?:bacteri\\w+\\s+)?$",
            Pattern.CASE_INSENSITIVE);

    /**
     * A host, not the species studied: "xenograft tumor formation in nude mice" grows human cells, and
     * a human cancer study that names mice only so is still about human genes.
     */
    private static final Pattern HOST_BEFORE = Pattern.compile(
            "(?:nude|athymic|SCID|NSG|NOG|immuno-?deficient|immuno-?compromised|xeno(?:graft|transplant)\\w*)[\\s/-]+(?:[\\w-]+[\\s/]+){0,3}$",
            Pattern.CASE_INSENSITIVE);
    /**
     * An expression host, not the species studied: "Xenopus oocytes" express other species' channels
     * and receptors (the frog's own genes are studied in its embryos, eggs and tadpoles).
     */
    private static final Pattern OOCYTES_AFTER = Pattern.compile("^[\\s-]+oocytes?\\b", Pattern.CASE_INSENSITIVE);

    private static final Set<Integer> XENOPUS = Set.of(8353, 8355, 8364);

    /**
     * Model organisms' genera, which papers on them name alone ("in Arabidopsis", "Xenopus tadpoles"),
     * read as the genus's model species, as SR4GN reads them; the species vocabulary holds few of them
     * alone, so a plant or frog paper that names no species otherwise had its genes taken for human.
     */
    private static final Map<String, Integer> MODEL_GENERA = Map.of(
            "Arabidopsis", 3702,
            "Xenopus", 8355,
            "Drosophila", 7227,
            "Caenorhabditis", 6239,
            "Saccharomyces", 4932,
            "Schizosaccharomyces", 4896,
            "Danio", 7955,
            "Dictyostelium", 44689,
            "Chlamydomonas", 3055);

    /** A range, not the species studied: "conserved from yeast to mammals" names both ends. */
    private static final Pattern RANGE_FROM = Pattern.compile("\\bfrom\\s+$", Pattern.CASE_INSENSITIVE);

    private static final Pattern RANGE_TO_AFTER = Pattern.compile("^\\s+to\\s+\\p{L}");
    private static final Pattern RANGE_TO =
            Pattern.compile("\\bfrom\\s+[\\p{L}.]+(?:\\s[\\p{L}.]+)?\\s+to\\s+$", Pattern.CASE_INSENSITIVE);
    /**
     * A patient's state, not the species studied: "HIV-infected individuals", "HBV-positive
     * patients" name a virus in a study of human genes.
     */
    private static final Pattern STATE_AFTER = Pattern.compile(
            "^[\\s-]+(?:co-?)?(?:infect\\w*|positive|negative|sero-?(?:positive|negative))\\b",
            Pattern.CASE_INSENSITIVE);
    /**
     * Words the corpora annotate as people ("family", "adult", "donor", "subject") that scientific
     * prose uses as often of other things ("the MAPK family", "adult mice", "donor hearts"): evidence
     * only where the model tagged them as species.
     */
    private static final Set<String> COMMON_WORDS = Set.of(
            "family",
            "families",
            "adult",
            "adults",
            "donor",
            "donors",
            "subject",
            "subjects",
            "individual",
            "individuals",
            "man",
            "men",
            "person",
            "persons");

    private SpeciesNames() {}

    /**
     * The species named in {@code text}, in text order; a place inside {@code taken} (the spans of the
     * document's other mentions: "ChAT" is a gene there, not a fish) is read past, and so is a name
     * the document defines as an abbreviation of something else ({@code abbreviations}: "base excision
     * repair (BER)").
     */
    static List<Named> in(
            String text, Vocabulary species, List<int[]> taken, Map<String, Abbreviations.Definition> abbreviations) {
        List<int[]> words = new ArrayList<>();
        Matcher w = WORD.matcher(text);
        while (w.find()) {
            words.add(new int[] {w.start(), w.end()});
        }
        String[] keys = new String[words.size()];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = NameKey.of(text.substring(words.get(i)[0], words.get(i)[1]));
        }
        List<Named> out = new ArrayList<>();
        for (int i = 0; i < keys.length; i++) {
            int end = -1;
            Candidate found = null;
            String key = keys[i];
            for (int j = i; j < keys.length && j - i < MAX_WORDS; j++) {
                if (j > i) {
                    String gap = text.substring(words.get(j - 1)[1], words.get(j)[0]);
                    if (!JOINER.matcher(gap).matches()) {
                        break;
                    }
                    key = key + " " + keys[j];
                }
                List<Candidate> exact = species.exact(key);
                if (!exact.isEmpty()) {
                    end = j;
                    found = exact.get(0);
                }
                if (!species.continues(key)) {
                    break;
                }
            }
            int taxon;
            if (found != null) {
                taxon = taxon(found.concept().id());
            } else {
                // a genus alone, only where no name of the vocabulary starts here
                Integer genus = MODEL_GENERA.get(text.substring(words.get(i)[0], words.get(i)[1]));
                if (genus == null) {
                    continue;
                }
                taxon = genus;
                end = i;
            }
            if (evidence(text, words.get(i)[0], words.get(end)[1], taxon, taken)
                    && !definedOtherwise(text.substring(words.get(i)[0], words.get(end)[1]), abbreviations, species)) {
                out.add(new Named(words.get(i)[0], words.get(end)[1], taxon));
                i = end;
            }
        }
        Matcher band = HUMAN_BAND.matcher(text);
        while (band.find()) {
            out.add(new Named(band.start(), band.end(), EntityLinker.HUMAN));
        }
        out.sort((a, b) -> Integer.compare(a.start(), b.start()));
        return out;
    }

    /** Whether a name found at {@code [start, end)} says which species the text is about. */
    private static boolean evidence(String text, int start, int end, int taxon, List<int[]> taken) {
        for (int[] t : taken) {
            if (start < t[1] && t[0] < end) {
                return false;
            }
        }
        String name = text.substring(start, end);
        return !SHORT_CELL_LINE.matcher(name).matches()
                && !COMMON_WORDS.contains(name.toLowerCase(Locale.ROOT))
                && namesTheStudied(text, start, end, taxon);
    }

    /**
     * Whether a species named at {@code [start, end)}, by the model or by the vocabulary's names, is
     * the one studied there rather than a method, a host, a gene's name, a range or a patient's state.
     */
    static boolean namesTheStudied(String text, int start, int end, int taxon) {
        String before = text.substring(Math.max(0, start - 60), start);
        String after = text.substring(end, Math.min(text.length(), end + 16));
        return !METHOD_AFTER.matcher(after).find()
                && !STATE_AFTER.matcher(after).find()
                && !(XENOPUS.contains(taxon) && OOCYTES_AFTER.matcher(after).find())
                && !NAMED_AFTER.matcher(before).find()
                && (STUDIED_IN_VIVO.contains(taxon)
                        || !EXPRESSED_IN_BEFORE.matcher(before).find())
                && !(RANGE_FROM.matcher(before).find()
                        && RANGE_TO_AFTER.matcher(after).find())
                && !RANGE_TO.matcher(before).find()
                && !HOST_BEFORE
                        .matcher(text.substring(Math.max(0, start - 40), lastWordStart(text, start, end)))
                        .find();
    }

    private static boolean definedOtherwise(
            String name, Map<String, Abbreviations.Definition> abbreviations, Vocabulary species) {
        Abbreviations.Definition defined = abbreviations.get(name);
        return defined != null && species.exact(NameKey.of(defined.longForm())).isEmpty();
    }

    /** Where the last word of {@code [start, end)} starts: "nude mice" is itself a name, of mice. */
    private static int lastWordStart(String text, int start, int end) {
        int at = end;
        while (at > start && Character.isLetterOrDigit(text.charAt(at - 1))) {
            at--;
        }
        return at;
    }

    /** The taxon of an {@code ncbitaxon:} CURIE; 0 for another id (a user's species vocabulary). */
    static int taxon(String curie) {
        try {
            return Integer.parseInt(curie.substring(curie.indexOf(':') + 1));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
