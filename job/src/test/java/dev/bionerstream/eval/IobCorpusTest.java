package dev.bionerstream.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IobCorpusTest {
    @TempDir
    Path dir;

    @Test
    void readsSentencesAndTypedSpans() throws Exception {
        Path f = dir.resolve("x.tsv");
        Files.writeString(
                f,
                String.join(
                        "\n",
                        "Naloxone\tB-Chemical",
                        "reverses\tO",
                        "clonidine\tB-Chemical",
                        "-\tI-Chemical",
                        "induced\tI-Chemical",
                        "hypertension\tB-Disease",
                        ".\tO",
                        "",
                        "Renal\tI-Disease",
                        "failure\tI-Disease",
                        "\t",
                        ""));
        IobCorpus c = IobCorpus.read(f, IobCorpus.parseTypes("Chemical=chemical,Disease=disease"));
        assertThat(c.sentences())
                .containsExactly("Naloxone reverses clonidine - induced hypertension .", "Renal failure");
        assertThat(c.gold().get(0))
                .containsExactly(new Span("chemical", 0, 8), new Span("chemical", 18, 37), new Span("disease", 38, 50));
        // a stray I- after O opens an entity
        assertThat(c.gold().get(1)).containsExactly(new Span("disease", 0, 13));
    }

    @Test
    void tagsOutsideTheMapAreO() throws Exception {
        Path f = dir.resolve("x.tsv");
        Files.writeString(f, "Aspirin\tB-Chemical\nrash\tB-Disease\n");
        IobCorpus c = IobCorpus.read(f, Map.of("Disease", "disease"));
        assertThat(c.gold()).containsExactly(List.of(new Span("disease", 8, 12)));
    }

    @Test
    void badInputSaysWhere() throws Exception {
        Path f = dir.resolve("bad.tsv");
        Files.writeString(f, "Aspirin B-Chemical\n");
        assertThatThrownBy(() -> IobCorpus.read(f, Map.of())).hasMessageContaining("bad.tsv:1");
        assertThatThrownBy(() -> IobCorpus.parseTypes("Chemical")).hasMessageContaining("TAG=type");
    }
}
