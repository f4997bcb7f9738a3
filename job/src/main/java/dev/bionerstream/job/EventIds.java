package dev.bionerstream.job;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Deterministic ids: the same input and model always give the same id, so replays upsert. */
public final class EventIds {
    private EventIds() {}

    public static String sha256(Object... parts) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            for (Object p : parts) {
                md.update(String.valueOf(p).getBytes(StandardCharsets.UTF_8));
                md.update((byte) 0);
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String document(String documentId, String modelId) {
        return sha256(documentId, modelId);
    }

    public static String mention(String documentId, String field, int start, int end, String type, String modelId) {
        return sha256(documentId, field, start, end, type, modelId);
    }
}
