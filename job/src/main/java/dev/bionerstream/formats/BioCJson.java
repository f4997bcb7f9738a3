package dev.bionerstream.formats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * BioC JSON (the PubTator3 and Europe PMC exchange format): a collection of documents, each with a
 * title and an abstract passage; annotation locations are code-point offsets in the document, as
 * the passage offsets are.
 */
public final class BioCJson {
    private static final ObjectMapper JSON = new ObjectMapper();

    private BioCJson() {}

    public static ObjectNode collection(String source, String date, List<Annotated> docs) {
        ObjectNode c =
                JSON.createObjectNode().put("source", source).put("date", date).put("key", "bioc.key");
        c.putObject("infons");
        ArrayNode documents = c.putArray("documents");
        for (Annotated d : docs) {
            ObjectNode doc = documents.addObject().put("id", d.id());
            doc.putObject("infons");
            ArrayNode passages = doc.putArray("passages");
            ObjectNode title = passage(passages, "title", 0, d.title());
            ObjectNode abs = passage(passages, "abstract", d.abstractOffset(), d.abstractText());
            int n = 0;
            for (Annotated.Annotation a : d.annotations()) {
                ObjectNode ann = (BioCPassages.inTitle(d, a) ? title : abs)
                        .withArray("annotations")
                        .addObject();
                ann.put("id", String.valueOf(n++));
                ann.putObject("infons").put("type", a.type()).put("identifier", a.conceptId());
                ann.put("text", a.text());
                ann.putArray("locations").addObject().put("offset", a.start()).put("length", a.end() - a.start());
            }
            doc.putArray("relations");
        }
        return c;
    }

    private static ObjectNode passage(ArrayNode passages, String type, int offset, String text) {
        ObjectNode p = passages.addObject();
        p.putObject("infons").put("type", type);
        p.put("offset", offset).put("text", text);
        p.putArray("sentences");
        p.putArray("annotations");
        p.putArray("relations");
        return p;
    }

    /**
     * The documents of a BioC JSON collection: the first passage is the title, the others the
     * abstract (see {@link BioCPassages} for where their annotations go).
     */
    public static List<Annotated> read(JsonNode collection) {
        List<Annotated> out = new ArrayList<>();
        for (JsonNode doc : required(collection, "documents", "collection")) {
            String id = required(doc, "id", "document").asText();
            BioCPassages passages = new BioCPassages(id);
            for (JsonNode p : required(doc, "passages", "document " + id)) {
                List<BioCPassages.Located> located = new ArrayList<>();
                for (JsonNode a : p.path("annotations")) {
                    JsonNode loc = required(a, "locations", "annotation of document " + id)
                            .get(0);
                    located.add(new BioCPassages.Located(
                            loc.path("offset").asInt(),
                            loc.path("length").asInt(),
                            a.path("text").asText(),
                            a.path("infons").path("type").asText(),
                            a.path("infons").path("identifier").asText("-")));
                }
                JsonNode offset = p.get("offset");
                passages.passage(
                        offset == null || !offset.canConvertToInt() ? null : offset.asInt(),
                        p.path("text").asText(""),
                        located);
            }
            out.add(passages.document());
        }
        return out;
    }

    private static JsonNode required(JsonNode node, String field, String where) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            throw new IllegalArgumentException("BioC JSON: " + where + " has no \"" + field + "\"");
        }
        return v;
    }
}
