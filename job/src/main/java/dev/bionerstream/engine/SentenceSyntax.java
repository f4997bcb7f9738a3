package dev.bionerstream.engine;

import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.features.PieceSyntax;
import dev.bionerstream.features.SyntaxEncoder;
import dev.bionerstream.features.WordPieces;
import dev.bionerstream.model.BundleManifest;
import dev.bionerstream.model.BundleSyntax;
import dev.bionerstream.syntax.OpenNlpAnnotator;
import dev.bionerstream.syntax.SyntaxAnnotator;
import dev.bionerstream.syntax.SyntaxKind;
import java.util.List;
import java.util.Optional;

/**
 * The syntax step of a bundle with combined feature attention: annotates a sentence once and gives
 * every window of it (all types, all cuts) its syntax inputs. The bundle names the annotator it was
 * trained with; a bundle trained with another is refused rather than served with labels it never saw.
 */
final class SentenceSyntax {
    private final SyntaxAnnotator annotator;
    private final SyntaxEncoder encoder;

    private SentenceSyntax(SyntaxAnnotator annotator, SyntaxEncoder encoder) {
        this.annotator = annotator;
        this.encoder = encoder;
    }

    /** The step {@code manifest} asks for, or empty for a bundle without syntax. */
    static Optional<SentenceSyntax> of(BundleManifest manifest) {
        BundleSyntax syntax = manifest.syntax();
        if (syntax == null) {
            return Optional.empty();
        }
        if (!syntax.annotator().equals(OpenNlpAnnotator.NAME)) {
            throw new IllegalArgumentException("the bundle " + manifest.id() + " was trained with the annotator '"
                    + syntax.annotator() + "'; this job runs '" + OpenNlpAnnotator.NAME
                    + "': use the job version the bundle was made for, or retrain it with this one");
        }
        List<SyntaxEncoder.Kind> kinds = syntax.kinds().stream()
                .map(k -> new SyntaxEncoder.Kind(SyntaxKind.of(k.kind()), k.width(), k.labels()))
                .toList();
        return Optional.of(new SentenceSyntax(OpenNlpAnnotator.shared(), new SyntaxEncoder(kinds)));
    }

    /** {@code windows} of {@code sentence} (tokenized as {@code pieces}) with their syntax inputs. */
    List<MrcWindow> attach(String sentence, WordPieces pieces, List<MrcWindow> windows) {
        PieceSyntax syntax = PieceSyntax.of(annotator.annotate(sentence), pieces);
        return windows.stream()
                .map(w -> w.withSyntax(encoder.encode(syntax, w.firstPiece(), w.contextLength(), w.length())))
                .toList();
    }
}
