package dev.bionerstream.avro;

import java.util.List;

/**
 * The link of a {@link DocumentEntities} mention: {@code links} runs beside {@code entities} (appended
 * after the fields of the release before linking, so that release's consumers read the records
 * unchanged), and is empty or absent in a record written with linking off or by that release.
 */
public final class MentionLinks {
    private MentionLinks() {}

    /** The link of mention {@code i}, or null when the record has none. */
    public static ConceptLink of(DocumentEntities d, int i) {
        List<ConceptLink> links = d.getLinks();
        return links == null || i >= links.size() ? null : links.get(i);
    }
}
