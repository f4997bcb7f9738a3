package dev.bionerstream.text;

import com.ibm.icu.text.BreakIterator;
import com.ibm.icu.text.FilteredBreakIteratorBuilder;
import com.ibm.icu.util.ULocale;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits text into sentences with char offsets, using ICU's Unicode sentence rules (which already
 * keep "E. coli", "0.5 mg" and "et al. reported" together) plus suppressions for the abbreviations
 * that end with a period before a capital letter or digit in biomedical abstracts.
 *
 * <p>Thread-safe: each call builds its own iterator (ICU iterators are stateful).
 */
public final class SentenceSplitter {
    /** Abbreviations after which a period never ends a sentence in abstracts. */
    static final List<String> ABBREVIATIONS = List.of(
            "e.g.", "i.e.", "et al.", "vs.", "Fig.", "Figs.", "fig.", "figs.", "Eq.", "Eqs.", "Ref.", "Refs.",
            "approx.", "ca.", "cf.", "resp.", "sp.", "spp.", "subsp.", "var.", "Dr.", "Prof.", "No.", "Nos.", "no.",
            "vol.", "Vol.", "pp.", "Tab.", "Suppl.", "Inc.", "Ltd.", "Co.", "St.", "Jr.", "min.", "max.", "conc.",
            "wt.", "mol.", "temp.", "avg.", "est.", "incl.", "approx.");

    private final FilteredBreakIteratorBuilder filter;

    public SentenceSplitter() {
        filter = FilteredBreakIteratorBuilder.getInstance(ULocale.ENGLISH);
        ABBREVIATIONS.forEach(filter::suppressBreakAfter);
    }

    public List<Sentence> split(String text) {
        BreakIterator it = filter.wrapIteratorWithFilter(BreakIterator.getSentenceInstance(ULocale.ENGLISH));
        it.setText(text);
        List<Sentence> out = new ArrayList<>();
        int start = it.first();
        for (int end = it.next(); end != BreakIterator.DONE; start = end, end = it.next()) {
            int s = start;
            int e = end;
            while (s < e && Character.isWhitespace(text.charAt(s))) {
                s++;
            }
            while (e > s && Character.isWhitespace(text.charAt(e - 1))) {
                e--;
            }
            if (s < e) {
                out.add(new Sentence(out.size(), s, e, text.substring(s, e)));
            }
        }
        return out;
    }
}
