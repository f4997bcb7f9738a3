package dev.bionerstream.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which files of the watched directory the ingest job reads, decided by name and by age. */
class SettledPubMedFilesTest {
    private final SettledPubMedFiles filter = new SettledPubMedFiles(Duration.ofSeconds(5));

    @TempDir
    Path dir;

    private boolean reads(String name, Duration age) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, "<PubmedArticleSet/>");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(age)));
        return filter.test(new org.apache.flink.core.fs.Path(file.toUri()));
    }

    @Test
    void aFileStillBeingWrittenIsLeftForALaterScan() throws Exception {
        assertThat(reads("pubmed26n0001.xml.gz", Duration.ZERO)).isFalse();
        assertThat(reads("pubmed26n0002.xml", Duration.ofSeconds(2))).isFalse();
    }

    @Test
    void aFileUnchangedForTheMinimumAgeIsRead() throws Exception {
        assertThat(reads("pubmed26n0001.xml.gz", Duration.ofSeconds(6))).isTrue();
        assertThat(reads("pubmed26n0002.xml", Duration.ofMinutes(10))).isTrue();
    }

    @Test
    void hiddenFilesAndOtherFilesAreNeverRead() throws Exception {
        assertThat(reads(".pubmed26n0001.xml.gz.part", Duration.ofHours(1))).isFalse();
        assertThat(reads("_pubmed26n0001.xml", Duration.ofHours(1))).isFalse();
        assertThat(reads("pubmed26n0001.xml.gz.md5", Duration.ofHours(1))).isFalse();
        assertThat(reads("README.md", Duration.ofHours(1))).isFalse();
    }

    @Test
    void subDirectoriesAreEnteredWhateverTheirAge() throws Exception {
        Path sub = Files.createDirectory(dir.resolve("2026"));
        assertThat(filter.test(new org.apache.flink.core.fs.Path(sub.toUri()))).isTrue();
    }
}
