package dev.bionerstream.features;

import dev.bionerstream.syntax.Context;
import dev.bionerstream.syntax.SyntaxKind;
import dev.bionerstream.syntax.WordSyntax;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * A sentence's syntax on its word pieces: every piece of a word carries the word's contexts, and a
 * context word is represented by its first piece (the position whose hidden state embeds it). A
 * context word with no piece (text the tokenizer drops) is left out; a piece outside every word has
 * no context. This is what {@code ./bioner annotate} writes for training, so training and serving
 * read the same contexts.
 */
public record PieceSyntax(Map<SyntaxKind, List<List<Context>>> contexts) {

    public static PieceSyntax of(WordSyntax syntax, WordPieces pieces) {
        int[] wordOf = new int[pieces.size()];
        int[] firstPiece = new int[syntax.words().size()];
        Arrays.fill(firstPiece, -1);
        int w = 0;
        for (int p = 0; p < pieces.size(); p++) {
            int start = pieces.starts()[p];
            while (w < syntax.words().size() && syntax.words().get(w)[1] <= start) {
                w++;
            }
            boolean inside = w < syntax.words().size() && syntax.words().get(w)[0] <= start;
            wordOf[p] = inside ? w : -1;
            if (inside && firstPiece[w] < 0) {
                firstPiece[w] = p;
            }
        }
        Map<SyntaxKind, List<List<Context>>> out = new EnumMap<>(SyntaxKind.class);
        syntax.contexts().forEach((kind, byWord) -> {
            List<List<Context>> byPiece = new ArrayList<>(pieces.size());
            for (int p = 0; p < pieces.size(); p++) {
                List<Context> c = new ArrayList<>();
                if (wordOf[p] >= 0) {
                    for (Context ctx : byWord.get(wordOf[p])) {
                        if (firstPiece[ctx.index()] >= 0) {
                            c.add(new Context(firstPiece[ctx.index()], ctx.label()));
                        }
                    }
                }
                byPiece.add(c);
            }
            out.put(kind, byPiece);
        });
        return new PieceSyntax(out);
    }
}
