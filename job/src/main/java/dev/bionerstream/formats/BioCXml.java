package dev.bionerstream.formats;

import java.io.Reader;
import java.io.Writer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import javax.xml.stream.XMLStreamWriter;

/**
 * BioC XML (the BioC DTD's collection/document/passage/annotation/location, as PubTator and the
 * BioCreative tasks exchange it), with the same conventions as {@link BioCJson}: code-point offsets,
 * a title and an abstract passage. Streamed both ways with StAX; no DTD is loaded.
 */
public final class BioCXml {
    private BioCXml() {}

    public static void write(String source, String date, List<Annotated> docs, Writer out) throws XMLStreamException {
        XMLStreamWriter x = XMLOutputFactory.newDefaultFactory().createXMLStreamWriter(out);
        x.writeStartDocument("UTF-8", "1.0");
        x.writeDTD("\n<!DOCTYPE collection SYSTEM \"BioC.dtd\">\n");
        x.writeStartElement("collection");
        element(x, "source", source);
        element(x, "date", date);
        element(x, "key", "bioc.key");
        for (Annotated d : docs) {
            x.writeStartElement("document");
            element(x, "id", d.id());
            List<Annotated.Annotation> title = new ArrayList<>();
            List<Annotated.Annotation> abs = new ArrayList<>();
            d.annotations().forEach(a -> (BioCPassages.inTitle(d, a) ? title : abs).add(a));
            passage(x, "title", 0, d.title(), title, 0);
            passage(x, "abstract", d.abstractOffset(), d.abstractText(), abs, title.size());
            x.writeEndElement();
        }
        x.writeEndElement();
        x.writeEndDocument();
        x.flush();
    }

    private static void passage(
            XMLStreamWriter x,
            String type,
            int offset,
            String text,
            List<Annotated.Annotation> annotations,
            int firstId)
            throws XMLStreamException {
        x.writeStartElement("passage");
        infon(x, "type", type);
        element(x, "offset", String.valueOf(offset));
        element(x, "text", text);
        int id = firstId;
        for (Annotated.Annotation a : annotations) {
            x.writeStartElement("annotation");
            x.writeAttribute("id", String.valueOf(id++));
            infon(x, "type", a.type());
            infon(x, "identifier", a.conceptId());
            x.writeEmptyElement("location");
            x.writeAttribute("offset", String.valueOf(a.start()));
            x.writeAttribute("length", String.valueOf(a.end() - a.start()));
            element(x, "text", a.text());
            x.writeEndElement();
        }
        x.writeEndElement();
    }

    private static void infon(XMLStreamWriter x, String key, String value) throws XMLStreamException {
        x.writeStartElement("infon");
        x.writeAttribute("key", key);
        x.writeCharacters(value);
        x.writeEndElement();
    }

    private static void element(XMLStreamWriter x, String name, String text) throws XMLStreamException {
        x.writeStartElement(name);
        x.writeCharacters(text);
        x.writeEndElement();
    }

    /** The documents of a BioC XML collection; malformed XML or a document without an id is an IllegalArgumentException saying where. */
    public static List<Annotated> read(Reader in) {
        XMLStreamReader x = null;
        try {
            x = SecureXml.inputFactory().createXMLStreamReader(in);
            List<Annotated> out = new ArrayList<>();
            while (x.hasNext()) {
                if (x.next() == XMLStreamConstants.START_ELEMENT
                        && x.getLocalName().equals("document")) {
                    out.add(document(x));
                }
            }
            return out;
        } catch (XMLStreamException e) {
            throw new IllegalArgumentException("BioC XML: not well-formed: " + e.getMessage(), e);
        } finally {
            SecureXml.close(x);
        }
    }

    private static Annotated document(XMLStreamReader x) throws XMLStreamException {
        BioCPassages passages = null;
        int line = x.getLocation().getLineNumber();
        while (!(x.next() == XMLStreamConstants.END_ELEMENT && x.getLocalName().equals("document"))) {
            if (x.getEventType() != XMLStreamConstants.START_ELEMENT) {
                continue;
            }
            switch (x.getLocalName()) {
                case "id" -> passages =
                        passages == null ? new BioCPassages(x.getElementText().trim()) : passages;
                case "passage" -> {
                    if (passages == null) {
                        throw new IllegalArgumentException(
                                "BioC XML: the document at line " + line + " has a passage before its <id>");
                    }
                    passage(x, passages);
                }
                default -> {}
            }
        }
        if (passages == null) {
            throw new IllegalArgumentException("BioC XML: the document at line " + line + " has no <id>");
        }
        return passages.document();
    }

    private static void passage(XMLStreamReader x, BioCPassages passages) throws XMLStreamException {
        String text = "";
        Integer offset = null;
        List<BioCPassages.Located> located = new ArrayList<>();
        while (!(x.next() == XMLStreamConstants.END_ELEMENT && x.getLocalName().equals("passage"))) {
            if (x.getEventType() == XMLStreamConstants.START_ELEMENT) {
                switch (x.getLocalName()) {
                    case "offset" -> offset = integer(x.getElementText(), "passage offset", x);
                    case "text" -> text = x.getElementText();
                    case "annotation" -> located.add(annotation(x));
                    default -> {}
                }
            }
        }
        passages.passage(offset, text, located);
    }

    private static int integer(String value, String what, XMLStreamReader x) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "BioC XML: line " + x.getLocation().getLineNumber() + ": " + what + " must be an integer, got '"
                            + value.trim() + "'");
        }
    }

    private static BioCPassages.Located annotation(XMLStreamReader x) throws XMLStreamException {
        Map<String, String> infons = new HashMap<>();
        String text = "";
        int offset = -1;
        int length = 0;
        while (!(x.next() == XMLStreamConstants.END_ELEMENT && x.getLocalName().equals("annotation"))) {
            if (x.getEventType() != XMLStreamConstants.START_ELEMENT) {
                continue;
            }
            switch (x.getLocalName()) {
                case "infon" -> infons.put(x.getAttributeValue(null, "key"), x.getElementText());
                case "location" -> {
                    offset = offset < 0 ? Integer.parseInt(x.getAttributeValue(null, "offset")) : offset;
                    length = length == 0 ? Integer.parseInt(x.getAttributeValue(null, "length")) : length;
                }
                case "text" -> text = x.getElementText();
                default -> {}
            }
        }
        return new BioCPassages.Located(
                offset, length, text, infons.getOrDefault("type", ""), infons.get("identifier"));
    }
}
