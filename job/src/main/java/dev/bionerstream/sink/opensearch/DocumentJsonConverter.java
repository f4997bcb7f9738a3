package dev.bionerstream.sink.opensearch;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.bionerstream.avro.ConceptLink;
import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.avro.Mention;
import dev.bionerstream.avro.MentionLinks;
import java.io.UncheckedIOException;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.format.DateTimeParseException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.connector.base.sink.writer.ElementConverter;

/**
 * Turns a {@link DocumentEntities} record into the search-index document described by {@code
 * opensearch/documents-mapping.json}: the text fields, one lower-cased keyword array per entity type
 * ({@code chemicals}, {@code diseases}, {@code genes}, {@code species}) for filters and
 * aggregations, the linked concept ids ({@code concepts}, a composite mention's each), and every
 * mention with its link in the nested {@code entities} array. The document id is the
 * record's {@code eventId}, so indexing the same record twice leaves one document.
 */
public final class DocumentJsonConverter implements ElementConverter<DocumentEntities, IndexRequestEntry> {
    private static final long serialVersionUID = 1L;

    static final ObjectMapper JSON = new ObjectMapper();

    /** Entity type (lower case, as in the model bundle) to its keyword-array field. */
    public static final Map<String, String> TYPE_FIELDS = typeFields();

    private static final Pattern YEAR = Pattern.compile("\\d{4}");

    @Override
    public IndexRequestEntry apply(DocumentEntities document, SinkWriter.Context context) {
        return new IndexRequestEntry(document.getEventId(), toJsonBytes(document));
    }

    public static byte[] toJsonBytes(DocumentEntities document) {
        try {
            return JSON.writeValueAsBytes(toDocument(document));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("Cannot write the index document of " + document.getEventId(), e);
        }
    }

    public static ObjectNode toDocument(DocumentEntities d) {
        ObjectNode doc = JSON.createObjectNode();
        doc.put("eventId", d.getEventId());
        doc.put("documentId", d.getDocumentId());
        putIfPresent(doc, "title", d.getTitle());
        putIfPresent(doc, "abstract", d.getAbstractText());
        putIfPresent(doc, "journal", d.getJournal());
        if (d.getPublicationDate() != null) {
            Optional<String> date = isoDate(d.getPublicationDate());
            if (date.isPresent()) {
                doc.put("publicationDate", date.get());
            } else {
                doc.put("publicationDateText", d.getPublicationDate());
            }
        }
        putIfPresent(doc, "source", d.getSource());
        doc.put("modelName", d.getModelName());
        doc.put("modelVersion", d.getModelVersion());
        doc.put("sentences", d.getSentences());
        doc.put("processingTime", d.getProcessingTime().toString());
        doc.put("mentionCount", d.getEntities().size());

        Map<String, Set<String>> textsByField = new LinkedHashMap<>();
        TYPE_FIELDS.values().forEach(field -> textsByField.put(field, new LinkedHashSet<>()));
        Set<String> types = new LinkedHashSet<>();
        Set<String> concepts = new LinkedHashSet<>();
        ArrayNode entities = doc.putArray("entities");
        for (int i = 0; i < d.getEntities().size(); i++) {
            Mention m = d.getEntities().get(i);
            ConceptLink link = MentionLinks.of(d, i);
            String type = m.getEntityType().toLowerCase(Locale.ROOT);
            types.add(type);
            String field = TYPE_FIELDS.get(type);
            if (field != null) {
                textsByField.get(field).add(m.getText().toLowerCase(Locale.ROOT));
            }
            ObjectNode e = entities.addObject();
            e.put("eventId", m.getEventId());
            e.put("type", type);
            e.put("text", m.getText());
            e.put("start", m.getStart());
            e.put("end", m.getEnd());
            e.put("field", m.getField().name());
            e.put("sentenceIndex", m.getSentenceIndex());
            e.put("score", m.getScore());
            e.put("queryId", m.getQueryId());
            if (link != null && link.getVocabulary() != null) {
                // a composite mention's concepts as arrays, so a search or facet by one id finds it
                List<String> ids = split(link.getConceptId());
                ids.forEach(e.putArray("conceptId")::add);
                split(link.getConceptName()).forEach(e.putArray("conceptName")::add);
                e.put("linkScore", link.getLinkScore());
                e.put("vocabulary", link.getVocabulary());
                concepts.addAll(ids);
            }
        }
        ArrayNode conceptArray = doc.putArray("concepts");
        concepts.forEach(conceptArray::add);
        ArrayNode typeArray = doc.putArray("entityTypes");
        types.forEach(typeArray::add);
        // Every per-type array is present, empty or not, so all documents have the same shape.
        for (Map.Entry<String, Set<String>> e : textsByField.entrySet()) {
            ArrayNode texts = doc.putArray(e.getKey());
            e.getValue().forEach(texts::add);
        }
        return doc;
    }

    /**
     * The publication date as {@code yyyy-MM-dd}, {@code yyyy-MM} or {@code yyyy} when it is a valid
     * date of one of those forms; empty otherwise (the raw text then goes to {@code
     * publicationDateText}).
     */
    static Optional<String> isoDate(String raw) {
        String s = raw.trim();
        try {
            switch (s.length()) {
                case 10:
                    return Optional.of(LocalDate.parse(s).toString());
                case 7:
                    return Optional.of(YearMonth.parse(s).toString());
                case 4:
                    return YEAR.matcher(s).matches() ? Optional.of(s) : Optional.empty();
                default:
                    return Optional.empty();
            }
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static List<String> split(String joined) {
        return joined == null ? List.of() : List.of(joined.split("\\|"));
    }

    private static void putIfPresent(ObjectNode doc, String field, String value) {
        if (value != null) {
            doc.put(field, value);
        }
    }

    private static Map<String, String> typeFields() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("chemical", "chemicals");
        m.put("disease", "diseases");
        m.put("gene", "genes");
        m.put("species", "species");
        return Collections.unmodifiableMap(m);
    }
}
