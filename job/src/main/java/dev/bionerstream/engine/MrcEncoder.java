package dev.bionerstream.engine;

import dev.bionerstream.features.MrcTokenizer;
import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.features.WindowBuilder;
import dev.bionerstream.features.WordPieces;
import dev.bionerstream.model.EntityQuery;
import dev.bionerstream.text.Sentence;
import dev.bionerstream.text.SentenceSplitter;
import java.util.ArrayList;
import java.util.List;

/** Text -> sentences -> word pieces -> one or more windows per (sentence, entity type). */
public final class MrcEncoder {
    private final SentenceSplitter splitter = new SentenceSplitter();
    private final MrcTokenizer tokenizer;
    private final WindowBuilder windows;
    private final List<long[]> queries = new ArrayList<>();
    private final SentenceSyntax syntax; // null: the model reads no syntax

    public MrcEncoder(MrcTokenizer tokenizer, List<EntityQuery> types, int maxLength) {
        this(tokenizer, types, maxLength, null);
    }

    MrcEncoder(MrcTokenizer tokenizer, List<EntityQuery> types, int maxLength, SentenceSyntax syntax) {
        this.tokenizer = tokenizer;
        this.syntax = syntax;
        this.windows = new WindowBuilder(maxLength, tokenizer.clsId(), tokenizer.sepId());
        for (EntityQuery q : types) {
            queries.add(tokenizer.ids(q.query()));
        }
    }

    /** Splits {@code text} into sentences first. */
    public EncodedText encode(String text) {
        return encode(text, splitter.split(text));
    }

    /** Treats {@code text} as one sentence (for corpora that are already split). */
    public EncodedText encodeSentence(String text) {
        return encode(text, text.isEmpty() ? List.of() : List.of(new Sentence(0, 0, text.length(), text)));
    }

    /** The presence gate's query-free windows of one sentence's pieces. */
    public List<MrcWindow> gateWindows(WordPieces sentence) {
        return windows.gateWindows(sentence);
    }

    private EncodedText encode(String text, List<Sentence> sentences) {
        List<WordPieces> pieces = new ArrayList<>(sentences.size());
        List<MrcWindow> all = new ArrayList<>();
        List<Integer> owner = new ArrayList<>();
        for (Sentence s : sentences) {
            WordPieces p = tokenizer.tokenize(s.text());
            pieces.add(p);
            if (p.size() == 0) {
                continue;
            }
            List<MrcWindow> sentenceWindows = new ArrayList<>();
            for (int t = 0; t < queries.size(); t++) {
                sentenceWindows.addAll(windows.windows(p, queries.get(t), t));
            }
            if (syntax != null) {
                sentenceWindows = syntax.attach(s.text(), p, sentenceWindows);
            }
            for (MrcWindow w : sentenceWindows) {
                all.add(w);
                owner.add(s.index());
            }
        }
        return new EncodedText(
                text,
                sentences,
                pieces,
                all,
                owner.stream().mapToInt(Integer::intValue).toArray());
    }
}
