package dev.bionerstream.linking;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The chemical elements written as their two-letter symbols, as chemists write them ("Pb", "Cd2+"):
 * a chemical mention written exactly so is its element. The lookup key has no case, so "Pb" (lead)
 * and "PB" (phenobarbital, as papers abbreviate it) were one key, and the corpora's counts gave both
 * to phenobarbital. One-letter symbols are left to the vocabulary: "I", "C", "K" are words and
 * numerals as often as elements.
 */
final class ElementSymbols {
    private ElementSymbols() {}

    /** Symbol, then charge as written in the literature: "Ca2+", "Fe3+", "Cl-". */
    private static final Pattern WRITTEN = Pattern.compile("([A-Z][a-z])(?:\\d*[+-])?");

    /**
     * Two-letter symbols and MeSH's names. Left out: "Cr", which clinical text uses for creatinine
     * as often as for chromium (BC5CDR annotates it both ways), and the elements no biomedical text
     * names by symbol (the transuranic ones).
     */
    private static final Map<String, String> NAMES =
            names("He helium Li lithium Be beryllium Ne neon Na sodium Mg magnesium Al aluminum Si silicon Cl chlorine"
                    + " Ar argon Ca calcium Sc scandium Ti titanium Mn manganese Fe iron Co cobalt Ni nickel"
                    + " Cu copper Zn zinc Ga gallium Ge germanium As arsenic Se selenium Br bromine Kr krypton"
                    + " Rb rubidium Sr strontium Zr zirconium Nb niobium Mo molybdenum Tc technetium Ru ruthenium"
                    + " Rh rhodium Pd palladium Ag silver Cd cadmium In indium Sn tin Sb antimony Te tellurium"
                    + " Xe xenon Cs cesium Ba barium La lanthanum Ce cerium Pr praseodymium Nd neodymium"
                    + " Sm samarium Eu europium Gd gadolinium Tb terbium Dy dysprosium Ho holmium Er erbium"
                    + " Tm thulium Yb ytterbium Lu lutetium Hf hafnium Ta tantalum Re rhenium Os osmium"
                    + " Ir iridium Pt platinum Au gold Hg mercury Tl thallium Pb lead Bi bismuth Po polonium"
                    + " Rn radon Ra radium Th thorium");

    private static Map<String, String> names(String pairs) {
        String[] words = pairs.split(" ");
        Map<String, String> out = new HashMap<>();
        for (int i = 0; i < words.length; i += 2) {
            out.put(words[i], words[i + 1]);
        }
        return Map.copyOf(out);
    }

    /** The element's name if {@code mention} is written as its symbol, else null. */
    static String element(String mention) {
        Matcher m = WRITTEN.matcher(mention.strip());
        return m.matches() ? NAMES.get(m.group(1)) : null;
    }
}
