package dev.bionerstream.pubmed;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/** The PubMed files of a directory as the ingest job sees them, read here to know what to expect. */
public final class PubMedDirectory {
    private PubMedDirectory() {}

    /** Documents that stand after reading every file in name order: citations less deletions. */
    public static long citations(Path dir) throws IOException {
        Set<String> ids = new HashSet<>();
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> isPubMedFile(p.getFileName().toString()))
                    .sorted()
                    .toList();
        }
        for (Path f : files) {
            try (InputStream raw = Files.newInputStream(f);
                    InputStream in = f.toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw;
                    PubMedXmlReader reader = new PubMedXmlReader(in, f.toString())) {
                for (FeedItem item; (item = reader.next()) != null; ) {
                    if (item instanceof FeedItem.Citation c) {
                        ids.add(c.value().getId());
                    } else if (item instanceof FeedItem.Deletion d) {
                        ids.remove(d.id());
                    }
                }
            }
        }
        return ids.size();
    }

    /** A PubMed XML file, not hidden: names starting with '.' or '_' are downloads or copies in progress. */
    public static boolean isPubMedFile(String name) {
        return !name.startsWith(".") && !name.startsWith("_") && (name.endsWith(".xml") || name.endsWith(".xml.gz"));
    }
}
