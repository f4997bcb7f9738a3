package dev.bionerstream.sink.opensearch;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * A document the index refused for its content (HTTP 400: a mapping conflict, a value too large),
 * as a record in the dead-letter index {@code <index>-dlq}: what was refused, why, and the document
 * itself as text. Retrying it would fail again and failing the job would restart it on the same
 * document for ever; this way it is kept, with its reason, and the stream goes on.
 */
final class DeadLetterDocument {
    static final String SUFFIX = "-dlq";

    private DeadLetterDocument() {}

    static IndexRequestEntry of(IndexRequestEntry refused, String index, int status, String reason) {
        ObjectNode doc = DocumentJsonConverter.JSON
                .createObjectNode()
                .put("eventId", refused.id())
                .put("index", index)
                .put("status", status)
                .put("reason", reason)
                .put("failedAt", Instant.now().toString())
                .put("document", new String(refused.source(), StandardCharsets.UTF_8));
        try {
            return new IndexRequestEntry(
                    refused.id(),
                    DocumentJsonConverter.JSON.writeValueAsBytes(doc),
                    index + SUFFIX,
                    IndexRequestEntry.UNVERSIONED);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
