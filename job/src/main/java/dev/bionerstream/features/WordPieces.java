package dev.bionerstream.features;

/**
 * The word pieces of one text: vocabulary ids and, per piece, its char range in that text
 * (Java string indices).
 */
public record WordPieces(long[] ids, int[] starts, int[] ends) {
    public int size() {
        return ids.length;
    }
}
