package dev.bionerstream.syntax;

/** Annotates one sentence with the syntax of every kind. Implementations are thread-safe. */
public interface SyntaxAnnotator {
    WordSyntax annotate(String sentence);

    /** What annotates, for bundle.json and the annotation files (toolkit, models). */
    String name();
}
