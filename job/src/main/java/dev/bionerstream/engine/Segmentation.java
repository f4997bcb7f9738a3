package dev.bionerstream.engine;

/** How a text given to the engine is cut into the sentences the model reads. */
public enum Segmentation {
    /** Sentence boundaries are found by the splitter (abstracts, titles, free text). */
    SENTENCES,
    /** The text is one sentence already (corpora that are split, such as the IOB test sets). */
    ONE_SENTENCE
}
