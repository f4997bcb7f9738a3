package dev.bionerstream.viewer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.avro.Mention;
import dev.bionerstream.avro.TextField;
import dev.bionerstream.cli.VocabularyConcepts;
import dev.bionerstream.demo.SharedService;
import dev.bionerstream.job.DocumentRecords;
import dev.bionerstream.linking.EntityLinker;
import dev.bionerstream.linking.LinkSettings;
import dev.bionerstream.linking.Linkers;
import dev.bionerstream.sink.opensearch.OpenSearchNode;
import dev.bionerstream.sink.opensearch.TestDocuments;
import dev.bionerstream.sink.opensearch.TestSinks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.formats.avro.typeutils.AvroTypeInfo;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The search-and-view page in headless Chromium, over a real OpenSearch node that the job's index
 * sink filled: a search by entity lists exactly the documents that mention it, and every highlight
 * is an indexed mention with its text, offsets (UTF-16, after a character outside the BMP too),
 * field and type, nested where one mention holds another. Screenshots go to {@code
 * target/viewer-screenshots/}.
 */
class ViewerITCase {
    private static final String INDEX = "bioner-viewer-it";
    private static final Path SCREENSHOTS = Path.of("target", "viewer-screenshots");
    /** Generous: a loaded 2-core machine starts Chromium and renders slowly. */
    private static final Duration WAIT = Duration.ofMinutes(2);

    private static final String MARKS_SCRIPT = "return Array.from(document.querySelectorAll('#results article'))"
            + ".map(a => ({eventId: a.dataset.eventId, marks: Array.from(a.querySelectorAll('mark')).map(m =>"
            + " ({field: m.dataset.field, start: m.dataset.start, end: m.dataset.end, type: m.dataset.type,"
            + " text: m.textContent, parentType: m.parentElement.dataset.type || '', title: m.title}))}));";

    @RegisterExtension
    static final SharedService<OpenSearchNode> OPENSEARCH = OpenSearchNode.shared();

    private static OpenSearchNode node;
    private static ViewerServer viewer;
    private static Browser browser;
    private static final List<DocumentEntities> INPUT = new ArrayList<>();

    @BeforeAll
    static void indexAndServe() throws Exception {
        node = OPENSEARCH.get();
        // linked as the job's "link concepts" stage links them, with the shipped vocabularies
        EntityLinker linker = Linkers.shared(LinkSettings.shipped());
        TestDocuments.generate(40, 23).forEach(d -> INPUT.add(DocumentRecords.linked(d, linker)));
        INPUT.add(DocumentRecords.linked(outsideTheBmp(), linker));
        index(INPUT);
        assertThat(node.count(INDEX)).as("documents indexed by the sink").isEqualTo(INPUT.size());
        viewer = ViewerServer.start(
                ViewerConfig.local(node.url, INDEX, 0), DeadLetterCounter.NONE, new VocabularyConcepts());
        browser = Browser.start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (browser != null) {
            browser.close();
        }
        if (viewer != null) {
            viewer.close();
        }
    }

    @Test
    void aSearchByEntityShowsItsDocumentsWithEveryMentionAtItsIndexedOffsets() throws Exception {
        List<DocumentEntities> expected = INPUT.stream()
                .filter(d -> d.getEntities().stream().anyMatch(m -> m.getText().equalsIgnoreCase("cisplatin")))
                .toList();
        assertThat(expected).as("test data mentioning cisplatin").isNotEmpty().hasSizeLessThan(20);

        open("");
        awaitStatus(INPUT.size() + " documents, first 20 shown");
        WebElement entity = browser.driver.findElement(By.name("entity"));
        entity.sendKeys("CISPLATIN"); // entity texts are matched case-insensitively, as indexed
        browser.driver.findElement(By.cssSelector("#search button")).click();
        awaitStatus(documents(expected.size()));

        Map<String, List<String>> shown = shownMarks();
        assertThat(shown.keySet())
                .as("documents listed for cisplatin")
                .containsExactlyInAnyOrderElementsOf(
                        expected.stream().map(DocumentEntities::getEventId).toList());
        for (DocumentEntities d : expected) {
            assertThat(shown.get(d.getEventId()))
                    .as("highlights of %s (field [start,end) type 'text')", d.getDocumentId())
                    .containsExactlyInAnyOrderElementsOf(indexed(d));
        }
        long cisplatinMentions = expected.stream()
                .flatMap(d -> d.getEntities().stream())
                .filter(m -> m.getText().equalsIgnoreCase("cisplatin"))
                .count();
        assertThat(texts("#entity-facets li")).contains("cisplatin " + cisplatinMentions);
        assertThat(texts("#type-facets li")).contains("chemical " + expected.size());
        assertThat(texts("#legend span")).contains("chemical", "disease", "gene", "species");
        assertPng(browser.screenshot(SCREENSHOTS.resolve("search-cisplatin.png")));
    }

    @Test
    void aConceptIdOrASynonymTheTextsDoNotContainFindsTheLinkedDocuments() {
        List<String> expected = INPUT.stream()
                .filter(d -> d.getLinks().stream().anyMatch(l -> "mesh:D000082".equals(l.getConceptId())))
                .map(DocumentEntities::getEventId)
                .toList();
        assertThat(expected).as("test documents whose acetaminophen was linked").isNotEmpty();
        assertThat(INPUT)
                .noneMatch(
                        d -> (d.getTitle() + d.getAbstractText()).toLowerCase().contains("paracetamol"));

        for (String search : List.of("paracetamol", "mesh:D000082", "Tylenol")) {
            open("#entity=" + search);
            awaitStatus(documents(expected.size()));
            assertThat(shownMarks().keySet())
                    .as("documents found by " + search)
                    .containsExactlyInAnyOrderElementsOf(expected);
        }
        long mentions = INPUT.stream()
                .flatMap(d -> d.getLinks().stream())
                .filter(l -> "mesh:D000082".equals(l.getConceptId()))
                .count();
        assertThat(texts("#concept-facets li")).contains("Acetaminophen (mesh:D000082) " + mentions);

        browser.driver.findElement(By.cssSelector("#results article h3 a")).click();
        new WebDriverWait(browser.driver, WAIT)
                .withMessage("the document view's concept column")
                .until(d -> !d.findElements(By.cssSelector("table.mentions td.concept a"))
                        .isEmpty());
        List<String> links = browser.driver.findElements(By.cssSelector("table.mentions td.concept a")).stream()
                .map(a -> a.getText() + " " + a.getAttribute("href"))
                .toList();
        assertThat(links)
                .as("each linked mention's id, linked to its source's page")
                .contains("mesh:D000082 https://meshb.nlm.nih.gov/record/ui?ui=D000082")
                .anyMatch(l -> l.startsWith("ncbitaxon:") && l.contains("ncbi.nlm.nih.gov/Taxonomy"))
                .anyMatch(l -> l.contains("ctdbase.org/detail.go?type=disease&acc=MESH:"));
        assertThat(browser.driver.findElements(By.cssSelector("#results mark[data-concept='mesh:D000082']")))
                .as("the highlighted acetaminophen carries its id")
                .isNotEmpty()
                .allSatisfy(m -> assertThat(m.getAttribute("title")).contains("mesh:D000082 Acetaminophen"));
    }

    @Test
    void anEntityAndAYearFindThatYearsDocumentsOnly() {
        List<String> expected = INPUT.stream()
                .filter(d ->
                        d.getPublicationDate() != null && d.getPublicationDate().startsWith("2024-"))
                .filter(d -> d.getEntities().stream().anyMatch(m -> m.getText().equalsIgnoreCase("cisplatin")))
                .map(DocumentEntities::getEventId)
                .toList();
        assertThat(expected)
                .as("test data mentioning cisplatin, published in 2024")
                .isNotEmpty();

        open("#entity=cisplatin");
        awaitStatus(documents((int) INPUT.stream()
                .filter(d -> d.getEntities().stream().anyMatch(m -> m.getText().equalsIgnoreCase("cisplatin")))
                .count()));
        browser.driver.findElement(By.name("year")).sendKeys("2024");
        browser.driver.findElement(By.cssSelector("#search button")).click();
        awaitStatus(documents(expected.size()));

        // "2024 Spring" is not a date the index can range over: it stays in publicationDateText.
        assertThat(shownMarks().keySet()).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void theDocumentViewShowsNestedMentionsAfterACharacterOutsideTheBmp() throws Exception {
        DocumentEntities doc = INPUT.get(INPUT.size() - 1);
        open("#entity=bcr-abl1&type=gene");
        awaitStatus(documents(1));
        browser.driver.findElement(By.cssSelector("#results article h3 a")).click();
        awaitStatus("document " + doc.getDocumentId() + ": " + doc.getEntities().size() + " mentions");

        List<Map<String, String>> marks = shown().get(0).marks();
        assertThat(marks.stream().map(ViewerITCase::describe).toList())
                .as("highlights of the document view")
                .containsExactlyInAnyOrderElementsOf(indexed(doc));
        assertThat(marks)
                .filteredOn(m -> m.get("text").equals("BCR-ABL1"))
                .singleElement()
                .satisfies(m -> assertThat(m.get("parentType"))
                        .as("BCR-ABL1 nested in the disease")
                        .isEqualTo("disease"))
                .satisfies(m -> assertThat(m.get("title")).contains("gene", "score 0.970", TestDocuments.VERSION));
        assertThat(browser.driver.findElements(By.cssSelector("table.mentions tbody tr")))
                .hasSize(doc.getEntities().size());
        assertPng(browser.screenshot(SCREENSHOTS.resolve("document.png")));
    }

    @Test
    void theLiveLineCountsTheIndex() {
        open("");
        new WebDriverWait(browser.driver, WAIT)
                .withMessage("the live line with " + INPUT.size() + " documents in the index")
                .until(d -> d.findElement(By.id("live"))
                        .getText()
                        .matches("last minute: \\d+ documents, \\d+ entities, 0 dead letters · " + INPUT.size()
                                + " documents in the index"));
    }

    /** The job's index sink, as the job wires it, on a local Flink environment. */
    private static void index(List<DocumentEntities> documents) throws Exception {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1, conf);
        env.fromData(documents, new AvroTypeInfo<>(DocumentEntities.class))
                .sinkTo(TestSinks.documents("--opensearch.hosts=" + node.url, "--opensearch.index=" + INDEX));
        env.execute("viewer-it");
    }

    /** Offsets count UTF-16 units: after the mouse (two units, one code point) a code-point page would be off by one. */
    private static DocumentEntities outsideTheBmp() {
        String id = "PMID:39999999";
        String title = "TNF-α and β-catenin signalling in mice";
        String text = "In 12 mice \uD83D\uDC2D, imatinib mesylate reduced BCR-ABL1-positive leukemia burden.";
        List<Mention> mentions = new ArrayList<>();
        mention(mentions, TextField.TITLE, title, "gene", "TNF-α");
        mention(mentions, TextField.TITLE, title, "gene", "β-catenin");
        mention(mentions, TextField.TITLE, title, "species", "mice");
        mention(mentions, TextField.ABSTRACT, text, "species", "mice");
        mention(mentions, TextField.ABSTRACT, text, "chemical", "imatinib mesylate");
        mention(mentions, TextField.ABSTRACT, text, "disease", "BCR-ABL1-positive leukemia");
        mention(mentions, TextField.ABSTRACT, text, "gene", "BCR-ABL1");
        return DocumentEntities.newBuilder()
                .setEventId(TestDocuments.sha256(id))
                .setDocumentId(id)
                .setTitle(title)
                .setAbstractText(text)
                .setModelName(TestDocuments.MODEL)
                .setModelVersion(TestDocuments.VERSION)
                .setSentences(1)
                .setProcessingTime(Instant.now())
                .setEntities(mentions)
                .build();
    }

    private static void mention(List<Mention> out, TextField field, String text, String type, String surface) {
        int start = text.indexOf(surface);
        out.add(Mention.newBuilder()
                .setEventId(TestDocuments.sha256(field + "|" + start + "|" + type))
                .setEntityType(type)
                .setText(surface)
                .setStart(start)
                .setEnd(start + surface.length())
                .setField(field)
                .setSentenceIndex(0)
                .setScore(0.97)
                .setQueryId(type + "-q")
                .build());
    }

    private static List<String> indexed(DocumentEntities d) {
        return d.getEntities().stream()
                .map(m -> String.format(
                        "%s [%d,%d) %s '%s'",
                        m.getField(),
                        m.getStart(),
                        m.getEnd(),
                        m.getEntityType().toLowerCase(Locale.ROOT),
                        m.getText()))
                .toList();
    }

    private static String describe(Map<String, String> mark) {
        return String.format(
                "%s [%s,%s) %s '%s'",
                mark.get("field"), mark.get("start"), mark.get("end"), mark.get("type"), mark.get("text"));
    }

    private static Map<String, List<String>> shownMarks() {
        return shown().stream().collect(Collectors.toMap(Shown::eventId, a -> a.marks().stream()
                .map(ViewerITCase::describe)
                .toList()));
    }

    /** An article on the page: its document's eventId and its highlights ({field, start, end, type, text, ...}). */
    private record Shown(String eventId, List<Map<String, String>> marks) {}

    @SuppressWarnings("unchecked")
    private static List<Shown> shown() {
        List<Map<String, Object>> articles = (List<Map<String, Object>>) browser.driver.executeScript(MARKS_SCRIPT);
        return articles.stream()
                .map(a -> new Shown((String) a.get("eventId"), (List<Map<String, String>>) a.get("marks")))
                .toList();
    }

    private static void assertPng(Path file) throws IOException {
        byte[] png = Files.readAllBytes(file);
        assertThat(png).as("screenshot " + file).startsWith(0x89, 'P', 'N', 'G').hasSizeGreaterThan(10_000);
    }

    private static List<String> texts(String selector) {
        return browser.driver.findElements(By.cssSelector(selector)).stream()
                .map(WebElement::getText)
                .toList();
    }

    private static String documents(int n) {
        return n + (n == 1 ? " document" : " documents");
    }

    private static void awaitStatus(String expected) {
        String[] last = {"(not read yet)"};
        new WebDriverWait(browser.driver, WAIT)
                .withMessage(() -> "the page's status line to read '" + expected + "'; it read '" + last[0] + "' at "
                        + browser.driver.getCurrentUrl())
                .until(d -> {
                    last[0] = d.findElement(By.id("status")).getText();
                    return last[0].equals(expected);
                });
    }

    /**
     * A fresh page load: going from one hash of the page to another only fires hashchange, and
     * the page of the test before (with its status line) would still be there when the wait
     * starts.
     */
    private static void open(String hash) {
        browser.driver.get("about:blank");
        browser.driver.get(viewer.url() + hash);
    }
}
