package dev.bionerstream.pubmed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.avro.Abstract;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

class PubMedXmlReaderTest {
    /** Real PubMed records (biopython's test files), shipped as the demo's sample. */
    static final Path SAMPLES = Path.of("..", "samples", "pubmed");

    static List<FeedItem> read(InputStream in, String source) {
        List<FeedItem> items = new ArrayList<>();
        try (PubMedXmlReader reader = new PubMedXmlReader(in, source)) {
            for (FeedItem item; (item = reader.next()) != null; ) {
                items.add(item);
            }
        }
        return items;
    }

    static List<FeedItem> resource(String name) throws IOException {
        try (InputStream in = PubMedXmlReaderTest.class.getResourceAsStream("/pubmed/" + name)) {
            assertThat(in).as("test resource /pubmed/" + name).isNotNull();
            return read(in, "pubmed:" + name);
        }
    }

    static Abstract citation(FeedItem item) {
        assertThat(item).isInstanceOf(FeedItem.Citation.class);
        return ((FeedItem.Citation) item).value();
    }

    @Test
    void realRecordKeepsLabelledSectionsAndSeparatesWordsAroundInlineTags() throws IOException {
        List<FeedItem> items = read(Files.newInputStream(SAMPLES.resolve("biopython-pubmed4.xml")), "pubmed:x");
        Abstract a = citation(items.get(0));
        assertThat(a.getId()).isEqualTo("27797938");
        assertThat(a.getTitle())
                .isEqualTo(
                        "Leucocyte telomere length, genetic variants at the TERT gene region and risk of pancreatic cancer.");
        assertThat(a.getAbstractText())
                .startsWith("OBJECTIVE: Telomere shortening occurs as an early event")
                .contains(" DESIGN: We measured prediagnostic leucocyte telomere length")
                .contains("SNPs) at the TERT region")
                .contains("ptrend=0.048") // sub and sup belong to their word
                .contains("r2<0.25")
                .contains(" CONCLUSIONS: Prediagnostic leucocyte telomere length")
                .doesNotContain("Published by the BMJ"); // CopyrightInformation is not abstract text
        assertThat(a.getJournal()).isEqualTo("Gut");
        assertThat(a.getPublicationDate()).isEqualTo("2017-06");
        assertThat(a.getRevised()).isEqualTo("2018-04-17");
        assertThat(a.getLanguage()).isEqualTo("eng");
        assertThat(a.getSource()).isEqualTo("pubmed:x");
    }

    @Test
    void everyShippedSampleReadsWithoutAMalformedItemAndOnlyCitationPmids() throws IOException {
        int citations = 0;
        try (var files = Files.list(SAMPLES)) {
            for (Path f :
                    files.filter(p -> p.toString().endsWith(".xml")).sorted().toList()) {
                List<FeedItem> items =
                        read(Files.newInputStream(f), f.getFileName().toString());
                assertThat(items).as(f.toString()).allMatch(i -> i instanceof FeedItem.Citation);
                String xml = Files.readString(f);
                long articles = xml.split("<PubmedArticle>", -1).length - 1;
                assertThat(items).as(f + ": one citation per PubmedArticle").hasSize((int) articles);
                for (FeedItem i : items) {
                    Abstract a = citation(i);
                    assertThat(xml)
                            .as("the citation's own PMID, not one it cites")
                            .containsPattern("<MedlineCitation[^>]*>\\s*<PMID Version=\"1\">" + a.getId() + "</PMID>");
                    assertThat(a.getTitle() + " " + a.getAbstractText())
                            .doesNotContainPattern("</?[a-zA-Z:]+[ >]")
                            .doesNotContain("  ");
                    citations++;
                }
            }
        }
        assertThat(citations).isGreaterThanOrEqualTo(5);
    }

    @Test
    void mathMlBecomesItsTokensAndSubSupStayGlued() throws IOException {
        Abstract a = citation(resource("pubmed26n0001.xml").get(3));
        assertThat(a.getId()).isEqualTo("90000004.v2");
        assertThat(a.getTitle()).isEqualTo("Second version of a versioned citation: H2O2 and r2 values, where x = 2.");
        assertThat(a.getAbstractText()).isNull();
        assertThat(a.getPublicationDate()).isEqualTo("2025");
    }

    @Test
    void medlineDateLanguageAndMissingAbstract() throws IOException {
        List<FeedItem> items = resource("pubmed26n0001.xml");
        assertThat(items).hasSize(4);
        Abstract first = citation(items.get(0));
        assertThat(first.getPublicationDate()).isEqualTo("1998-12");
        assertThat(first.getAbstractText())
                .isEqualTo(
                        "BACKGROUND: Cocaine causes seizures in mice. RESULTS: Lithium did not prevent the seizures.");
        Abstract german = citation(items.get(1));
        assertThat(german.getLanguage())
                .as("no English abstract: the article's own language, its text")
                .isEqualTo("ger");
        assertThat(german.getTitle()).isEqualTo("Haloperidol in der Behandlung des Delirs.");
        assertThat(german.getAbstractText()).isEqualTo("Haloperidol wurde bei Delir gegeben.");
        assertThat(german.getPublicationDate()).isEqualTo("2024-03-07");
        Abstract third = citation(items.get(2));
        assertThat(third.getTitle()).isEqualTo("Aspirin and the risk of colorectal cancer.");
        assertThat(third.getAbstractText())
                .isEqualTo("Aspirin use lowered the risk of colorectal cancer in Homo sapiens.");
    }

    @Test
    void aRecordsLanguageIsThatOfTheTextItCarries() throws IOException {
        List<FeedItem> items = resource("pubmed26n0003.xml");
        Abstract spanishOnly = citation(items.get(0));
        assertThat(spanishOnly.getLanguage()).isEqualTo("spa");
        assertThat(spanishOnly.getTitle()).isEqualTo("Fracaso renal agudo tras cisplatino: a propósito de un caso.");
        assertThat(spanishOnly.getAbstractText())
                .startsWith("CASO CLÍNICO: Paciente de 54 años tratado con cisplatino")
                .endsWith("la proteína C reactiva era normal .");
        Abstract alsoEnglish = citation(items.get(1));
        assertThat(alsoEnglish.getLanguage())
                .as("a Spanish article with an English abstract goes out in English")
                .isEqualTo("eng");
        assertThat(alsoEnglish.getTitle()).isEqualTo("[Lithium toxicity in an elderly patient].");
        assertThat(alsoEnglish.getAbstractText()).isEqualTo("Lithium toxicity caused seizures in an elderly woman.");
    }

    @Test
    void revisionBrokenArticleAndDeletionInFileOrder() throws IOException {
        List<FeedItem> items = resource("pubmed26n0002.xml");
        assertThat(items).hasSize(3);
        assertThat(citation(items.get(0)).getRevised()).isEqualTo("2026-01-15");
        assertThat(items.get(1)).isInstanceOf(FeedItem.Malformed.class);
        FeedItem.Malformed broken = (FeedItem.Malformed) items.get(1);
        assertThat(broken.reason()).isEqualTo("article without a PMID");
        assertThat(broken.position()).startsWith("article 2, line ");
        assertThat(items.get(2)).isEqualTo(new FeedItem.Deletion("90000003"));
    }

    @Test
    void truncatedGzipKeepsWhatWasReadAndReportsWhereItBroke() throws IOException {
        byte[] xml;
        try (InputStream in = getClass().getResourceAsStream("/pubmed/pubmed26n0001.xml")) {
            xml = in.readAllBytes();
        }
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
            out.write(xml);
        }
        byte[] whole = gz.toByteArray();
        byte[] truncated = Arrays.copyOf(whole, whole.length * 2 / 3);
        List<FeedItem> items = read(new GZIPInputStream(new ByteArrayInputStream(truncated)), "t");
        FeedItem last = items.get(items.size() - 1);
        assertThat(last).isInstanceOf(FeedItem.Malformed.class);
        assertThat(((FeedItem.Malformed) last).reason()).startsWith("not well-formed XML (or a truncated file)");
        assertThat(((FeedItem.Malformed) last).position()).matches("article \\d, line \\d+, column \\d+");
        assertThat(items.subList(0, items.size() - 1)).isNotEmpty().allMatch(i -> i instanceof FeedItem.Citation);
    }

    @Test
    void notXmlAtAllAndExternalEntitiesAreMalformedNotFetched() {
        List<FeedItem> garbage =
                read(new ByteArrayInputStream("PK\u0003\u0004 zip?".getBytes(StandardCharsets.ISO_8859_1)), "g");
        assertThat(garbage).singleElement().isInstanceOf(FeedItem.Malformed.class);
        String xxe = "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>"
                + "<PubmedArticleSet><PubmedArticle><MedlineCitation><PMID>1</PMID><Article>"
                + "<ArticleTitle>&e;</ArticleTitle></Article></MedlineCitation></PubmedArticle></PubmedArticleSet>";
        List<FeedItem> items = read(new ByteArrayInputStream(xxe.getBytes(StandardCharsets.UTF_8)), "x");
        assertThat(items)
                .noneMatch(i -> i instanceof FeedItem.Citation c
                        && c.value().getTitle() != null
                        && c.value().getTitle().contains("root:"));
        assertThat(items).last().isInstanceOf(FeedItem.Malformed.class);
    }
}
