package dev.bionerstream.formats;

import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/** StAX reading of untrusted files: no DTD is loaded and no external entity resolved (no XXE), text coalesced. */
public final class SecureXml {
    private static final XMLInputFactory FACTORY = factory();

    private SecureXml() {}

    public static XMLInputFactory inputFactory() {
        return FACTORY;
    }

    /** Closing a reader frees its buffers only (the caller owns the stream), so a failure there changes nothing. */
    public static void close(XMLStreamReader reader) {
        if (reader != null) {
            try {
                reader.close();
            } catch (XMLStreamException e) {
                // nothing to release beyond the buffers
            }
        }
    }

    private static XMLInputFactory factory() {
        XMLInputFactory f = XMLInputFactory.newDefaultFactory();
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        f.setProperty(XMLInputFactory.IS_COALESCING, true);
        return f;
    }
}
