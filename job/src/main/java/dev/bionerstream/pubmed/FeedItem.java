package dev.bionerstream.pubmed;

import dev.bionerstream.avro.Abstract;

/** What a PubMed file says, one item at a time, in file order. */
public sealed interface FeedItem {
    /** A new or revised citation: it replaces any earlier record with the same id. */
    record Citation(Abstract value) implements FeedItem {}

    /** A {@code DeleteCitation} entry: the document with this id is withdrawn. */
    record Deletion(String id) implements FeedItem {}

    /**
     * An article or a file that cannot be read; {@code position} says where ("article 3, line 120,
     * column 7"). After a malformed file (not well-formed XML, truncated gzip) nothing more is read from it.
     */
    record Malformed(String reason, String position) implements FeedItem {}
}
