package dev.bionerstream.linking;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The words of one document ({@link NameKey}'s words), to tell apart genes of one species that
 * share a symbol by their other names: in an abstract on "protease-activated receptors", "PAR1" is
 * F2r, the proteinase-activated receptor 1, not Mark2, whose alias is also Par-1.
 */
final class DocumentWords {
    /** Shorter words are symbols' pieces and digits ("ii", "1"), which tell genes of a family apart by chance. */
    private static final int SHORTEST = 3;

    private final Set<String> words;

    DocumentWords(String text) {
        this.words = new HashSet<>(Arrays.asList(NameKey.of(text).split(" ")));
    }

    /** How many distinct words of {@code names}, other than the mention's own, the document uses. */
    int support(List<String> names, String mentionKey) {
        List<String> own = Arrays.asList(mentionKey.split(" "));
        Set<String> found = new HashSet<>();
        for (String name : names) {
            for (String w : name.split(" ")) {
                if (w.length() >= SHORTEST && !own.contains(w) && words.contains(w)) {
                    found.add(w);
                }
            }
        }
        return found.size();
    }
}
