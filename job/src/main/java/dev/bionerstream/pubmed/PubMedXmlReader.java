package dev.bionerstream.pubmed;

import dev.bionerstream.avro.Abstract;
import dev.bionerstream.formats.SecureXml;
import java.io.Closeable;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.xml.stream.Location;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Streams a PubMed XML file ({@code PubmedArticleSet}: baseline and update files, efetch output)
 * as {@link FeedItem}s, one article in memory at a time. Maps PMID (a Version above 1 becomes
 * {@code PMID.vN}: versioned citations coexist in PubMed), ArticleTitle, every AbstractText of the
 * English abstract in order ("LABEL: text" when labelled), journal title, PubDate (Year/Month/Day
 * or MedlineDate) and DateRevised; {@code DeleteCitation} lists become deletions.
 *
 * <p>A record's {@code language} is the language of the text it carries, since it picks the model
 * that reads it. PubMed's ArticleTitle and Abstract are English whatever the article's Language, so
 * they go out as {@code eng}; an article with no English abstract but one in its own language
 * (OtherAbstract of the article's first Language, e.g. a Spanish case report) goes out in that
 * language instead, with its VernacularTitle, so a Spanish bundle reads Spanish text. English first
 * keeps the archive's annotations comparable with PubMed's own (English) annotation.
 *
 * <p>Never throws on bad content: an article without a PMID or without any text is a {@link
 * FeedItem.Malformed} and reading goes on; XML that is not well-formed (or a truncated gzip stream
 * under it) ends the file with one {@link FeedItem.Malformed} naming the line and column.
 */
public final class PubMedXmlReader implements Closeable {
    private final XMLStreamReader xml;
    private final String source;
    private final Deque<FeedItem> pending = new ArrayDeque<>();
    private int articles;
    private boolean done;

    /**
     * @param in the XML, already decompressed
     * @param source what the records' {@code source} field says, e.g. {@code pubmed:pubmed25n1275.xml.gz}
     */
    public PubMedXmlReader(InputStream in, String source) {
        this.source = source;
        XMLStreamReader reader = null;
        try {
            reader = SecureXml.inputFactory().createXMLStreamReader(in);
        } catch (XMLStreamException e) {
            done = true;
            pending.add(new FeedItem.Malformed("not readable as XML: " + e.getMessage(), "start of file"));
        }
        this.xml = reader;
    }

    /** The next item in file order, or null at the end of the file. */
    public FeedItem next() {
        while (pending.isEmpty() && !done) {
            try {
                advance();
            } catch (XMLStreamException | RuntimeException e) {
                // A broken file cannot be resynchronised: what was read stands, the rest is reported.
                done = true;
                pending.add(new FeedItem.Malformed(
                        "not well-formed XML (or a truncated file): " + rootMessage(e), position(e)));
            }
        }
        return pending.poll();
    }

    /** Number of articles started so far (the position of the current one, counting from 1). */
    public int articles() {
        return articles;
    }

    private void advance() throws XMLStreamException {
        int event = xml.next();
        if (event == XMLStreamConstants.END_DOCUMENT) {
            done = true;
        } else if (event == XMLStreamConstants.START_ELEMENT) {
            switch (xml.getLocalName()) {
                case "PubmedArticle", "PubmedBookArticle" -> {
                    articles++;
                    pending.add(article(xml.getLocalName()));
                }
                case "DeleteCitation" -> deletions();
                default -> {}
            }
        }
    }

    private FeedItem article(String element) throws XMLStreamException {
        String where = position(null);
        ArticleFields f = new ArticleFields();
        Deque<String> path = new ArrayDeque<>();
        path.push(element);
        while (!path.isEmpty()) {
            int event = xml.next();
            if (event == XMLStreamConstants.END_ELEMENT) {
                path.pop();
            } else if (event == XMLStreamConstants.START_ELEMENT) {
                String name = xml.getLocalName();
                String parent = path.peek();
                if (!f.read(name, parent, xml)) {
                    path.push(name);
                }
            }
        }
        return f.toItem(source, where);
    }

    private void deletions() throws XMLStreamException {
        while (true) {
            int event = xml.next();
            if (event == XMLStreamConstants.END_ELEMENT && xml.getLocalName().equals("DeleteCitation")) {
                return;
            }
            if (event == XMLStreamConstants.START_ELEMENT && xml.getLocalName().equals("PMID")) {
                String version = xml.getAttributeValue(null, "Version");
                pending.add(new FeedItem.Deletion(ArticleFields.id(xml.getElementText(), version)));
            }
        }
    }

    private String position(Exception e) {
        Location at =
                e instanceof XMLStreamException x && x.getLocation() != null ? x.getLocation() : xml.getLocation();
        return "article " + Math.max(articles, 1) + ", line " + at.getLineNumber() + ", column " + at.getColumnNumber();
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return message.replaceAll("^ParseError at \\[row,col]:\\[\\d+,\\d+]\\s*Message: ", "");
    }

    @Override
    public void close() {
        SecureXml.close(xml);
    }

    /** The fields of one article as they are met. */
    private static final class ArticleFields {
        private static final String ENGLISH = "eng";
        private String id;
        private String title;
        private String bookTitle;
        private final List<String> sections = new ArrayList<>();
        private String vernacularTitle;
        /** AbstractText sections of each OtherAbstract, by its Language attribute. */
        private final Map<String, List<String>> otherSections = new HashMap<>();

        private String otherLanguage;
        private String journal;
        private String published;
        private String language;
        private String revised;

        /** Reads the element the reader is on when it is a field (true), or leaves it to the caller. */
        boolean read(String name, String parent, XMLStreamReader xml) throws XMLStreamException {
            switch (name) {
                case "PMID" -> {
                    if (id != null || !("MedlineCitation".equals(parent) || "BookDocument".equals(parent))) {
                        return false;
                    }
                    String version = xml.getAttributeValue(null, "Version");
                    id = id(xml.getElementText(), version);
                }
                case "ArticleTitle" -> title = InlineText.read(xml);
                case "BookTitle" -> bookTitle = InlineText.read(xml);
                case "VernacularTitle" -> vernacularTitle = InlineText.read(xml);
                case "OtherAbstract" -> {
                    // Noted, then descended into like any container: its AbstractTexts follow.
                    String l = xml.getAttributeValue(null, "Language");
                    otherLanguage = l == null ? "" : l.trim();
                    return false;
                }
                case "AbstractText" -> {
                    if ("Abstract".equals(parent)) {
                        addSection(sections, xml);
                    } else if ("OtherAbstract".equals(parent)) {
                        addSection(otherSections.computeIfAbsent(otherLanguage, k -> new ArrayList<>()), xml);
                    } else {
                        return false;
                    }
                }
                case "Title" -> {
                    if (!"Journal".equals(parent)) {
                        return false;
                    }
                    journal = xml.getElementText().trim();
                }
                case "PubDate" -> published = PubMedDates.read(xml);
                case "DateRevised" -> revised = PubMedDates.read(xml);
                case "Language" -> {
                    String l = xml.getElementText().trim();
                    language = language == null && !l.isEmpty() ? l : language;
                }
                default -> {
                    return false;
                }
            }
            return true;
        }

        private static void addSection(List<String> to, XMLStreamReader xml) throws XMLStreamException {
            String label = xml.getAttributeValue(null, "Label");
            String text = InlineText.read(xml);
            if (!text.isEmpty()) {
                to.add(label == null || label.isBlank() ? text : label + ": " + text);
            }
        }

        static String id(String pmid, String version) {
            String v = version == null ? "1" : version.trim();
            return v.equals("1") || v.isEmpty() ? pmid.trim() : pmid.trim() + ".v" + v;
        }

        FeedItem toItem(String source, String where) {
            if (id == null || id.isEmpty()) {
                return new FeedItem.Malformed("article without a PMID", where);
            }
            List<String> own = language == null ? List.of() : otherSections.getOrDefault(language, List.of());
            boolean ownLanguage = sections.isEmpty() && !own.isEmpty() && !ENGLISH.equals(language);
            String t = ownLanguage ? vernacularTitle : title == null || title.isEmpty() ? bookTitle : title;
            List<String> body = ownLanguage ? own : sections;
            String abs = body.isEmpty() ? null : String.join(" ", body);
            if ((t == null || t.isEmpty()) && abs == null) {
                return new FeedItem.Malformed("PMID " + id + " has neither a title nor an abstract", where);
            }
            return new FeedItem.Citation(Abstract.newBuilder()
                    .setId(id)
                    .setTitle(t == null || t.isEmpty() ? null : t)
                    .setAbstractText(abs)
                    .setJournal(journal)
                    .setPublicationDate(published)
                    .setSource(source)
                    .setLanguage(ownLanguage ? language : ENGLISH)
                    .setRevised(revised)
                    .build());
        }
    }
}
