package dev.bionerstream.linking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bionerstream.text.DocumentText;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VocabularyFilesTest {
    @TempDir
    Path dir;

    static LinkSettings userOnly(String type, Path file) {
        return new LinkSettings(Map.of(), Map.of(type, file.toString()), Map.of(), List.of(), 0.75);
    }

    @Test
    void aUsersVocabularyLinksItsNamesAndSynonyms() throws IOException {
        Path drugs = Files.writeString(
                dir.resolve("drugs.tsv"),
                "# our compounds\nacme:drug-42\tWonderdrug\tZX-42|wonder drug\nacme:drug-7\tOtherdrug\n");
        EntityLinker linker = EntityLinker.open(userOnly("chemical", drugs));
        List<Link> links = linker.link(
                DocumentText.of("x"),
                List.of(
                        new Mention("chemical", "zx42"),
                        new Mention("chemical", "Wonder-drugs"),
                        new Mention("chemical", "otherdrug")));
        assertThat(links).extracting(Link::id).containsExactly("acme:drug-42", "acme:drug-42", "acme:drug-7");
        assertThat(links.get(0).name()).isEqualTo("Wonderdrug");
        assertThat(linker.vocabularies().get("chemical").lineage()).isEqualTo("user:drugs.tsv");
    }

    @Test
    void aBadLineOfAUsersVocabularyIsAnErrorNamingTheFileAndTheLine() throws IOException {
        assertError("acme:1\tOne\nnot-a-curie\tTwo\n", "line 2", "must be a CURIE", "\"not-a-curie\"");
        assertError("acme:1\tOne\nacme:1\tAgain\n", "line 2", "acme:1 is listed twice");
        assertError("\nacme:1\t \n", "line 2", "has no name");
        assertError("acme:1\tOne\tsyn\textra\n", "line 1", "4 tab-separated fields");
    }

    private void assertError(String content, String... parts) throws IOException {
        Path file = Files.writeString(dir.resolve("bad.tsv"), content);
        assertThatThrownBy(() -> EntityLinker.open(userOnly("chemical", file)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContainingAll(parts);
    }

    @Test
    void aMissingUsersVocabularyNamesTheFile() {
        Path missing = dir.resolve("missing.tsv");
        assertThatThrownBy(() -> EntityLinker.open(userOnly("chemical", missing)))
                .hasMessageContaining(missing.toString());
    }

    @Test
    void aBrokenBundleIsAnErrorNamingItsFileAndLine() throws IOException {
        Path bundle = Files.createDirectories(dir.resolve("chemical"));
        Files.writeString(
                bundle.resolve("vocabulary.json"),
                "{\"format\": 1, \"name\": \"v\", \"version\": \"1\", \"entity_type\": \"chemical\"}");
        gzip(bundle.resolve("concepts.tsv.gz"), "id\tname\tsynonyms\ttaxon\tweight\nmesh:D1\tA\t\t\t\nmesh:D2\tB\n");
        gzip(bundle.resolve("corpus-names.tsv.gz"), "id\tname\tsource\tmentions\n");
        LinkSettings settings =
                new LinkSettings(Map.of("chemical", bundle.toString()), Map.of(), Map.of(), List.of(), 0.75);
        assertThatThrownBy(() -> EntityLinker.open(settings))
                .hasMessageContainingAll("concepts.tsv.gz", "line 3", "expected 5 tab-separated fields, got 2");

        LinkSettings wrongType =
                new LinkSettings(Map.of("gene", bundle.toString()), Map.of(), Map.of(), List.of(), 0.75);
        gzip(bundle.resolve("concepts.tsv.gz"), "id\tname\tsynonyms\ttaxon\tweight\nmesh:D1\tA\t\t\t\n");
        assertThatThrownBy(() -> EntityLinker.open(wrongType))
                .hasMessageContaining("is for chemical entities, not gene");
    }

    @Test
    void aCorpusOnlyGeneTakesTheTaxonOfItsRowAndABundleWithoutThatColumnStillReads() throws IOException {
        String concepts = "id\tname\tsynonyms\ttaxon\tweight\nncbigene:627\tBDNF\t\t9606\t1001\n";
        assertThat(corpusOnlyGene(concepts, "id\tname\tsource\tmentions\ttaxon\nncbigene:24225\tBdnf\tc\t3\t10116\n"))
                .isEqualTo(new Concept("ncbigene:24225", "Bdnf", 10116, 0));
        assertThat(corpusOnlyGene(concepts, "id\tname\tsource\tmentions\nncbigene:24225\tBdnf\tc\t3\n"))
                .as("the layout before the taxon column")
                .isEqualTo(new Concept("ncbigene:24225", "Bdnf", 0, 0));
    }

    private Concept corpusOnlyGene(String concepts, String corpusNames) throws IOException {
        Path bundle = Files.createDirectories(dir.resolve("gene"));
        Files.writeString(
                bundle.resolve("vocabulary.json"),
                "{\"format\": 1, \"name\": \"v\", \"version\": \"1\", \"entity_type\": \"gene\"}");
        gzip(bundle.resolve("concepts.tsv.gz"), concepts);
        gzip(bundle.resolve("corpus-names.tsv.gz"), corpusNames);
        EntityLinker linker = EntityLinker.open(
                new LinkSettings(Map.of("gene", bundle.toString()), Map.of(), Map.of(), List.of(), 0.75));
        return linker.vocabularies().get("gene").exact("bdnf").stream()
                .map(Candidate::concept)
                .filter(c -> c.id().equals("ncbigene:24225"))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void anExtraVocabularyAddsToTheBundleAndReplacesItsConceptOfTheSameId() throws IOException {
        Path extra = Files.writeString(
                dir.resolve("extra.tsv"), "acme:drug-42\tWonderdrug\nmesh:D3\tClonidine Hydrochloride\n");
        LinkSettings settings = new LinkSettings(
                Map.of("chemical", TinyVocabularies.chemicals().writeTo(dir).toString()),
                Map.of(),
                Map.of("chemical", extra.toString()),
                List.of(),
                0.75);
        EntityLinker linker = EntityLinker.open(settings);
        List<Link> links = linker.link(
                DocumentText.of("x"),
                List.of(
                        new Mention("chemical", "wonderdrug"),
                        new Mention("chemical", "naloxone"),
                        new Mention("chemical", "clonidine")));
        assertThat(links).extracting(Link::id).containsExactly("acme:drug-42", "mesh:D1", "mesh:D3");
        assertThat(links.get(2).name()).as("the user's concept").isEqualTo("Clonidine Hydrochloride");
        assertThat(linker.vocabularies().get("chemical").lineage()).isEqualTo("tiny-chemical:1+user:extra.tsv");
    }

    private static void gzip(Path file, String content) throws IOException {
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
            out.write(content.getBytes(StandardCharsets.UTF_8));
        }
    }
}
