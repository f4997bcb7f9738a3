package dev.bionerstream.ingest;

import dev.bionerstream.kafka.OutputFormat;
import dev.bionerstream.pubmed.FeedItem;
import dev.bionerstream.pubmed.PubMedXmlReader;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.apache.flink.api.common.io.compression.InflaterInputStreamFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.compression.StandardDeCompressors;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.util.ArrayResultIterator;
import org.apache.flink.connector.file.src.util.CheckpointedPosition;
import org.apache.flink.core.fs.Path;

/**
 * A PubMed XML file ({@code .xml} or {@code .xml.gz}) as ingest records, streamed with {@link
 * PubMedXmlReader}. Files are read whole by one reader (XML cannot be split); the checkpointed
 * position is the number of records already emitted, which a restored reader skips, so a restart
 * neither repeats nor loses a record.
 */
final class PubMedFileFormat implements BulkFormat<IngestRecord, FileSourceSplit> {
    private static final long serialVersionUID = 1L;
    private static final int BATCH = 64;

    private final OutputFormat deadLetters;

    /** {@code deadLetters}: how the dead letters of malformed articles and files are written. */
    PubMedFileFormat(OutputFormat deadLetters) {
        this.deadLetters = deadLetters;
    }

    @Override
    public Reader<IngestRecord> createReader(Configuration config, FileSourceSplit split) throws IOException {
        return new FileReader(split.path(), 0, deadLetters);
    }

    @Override
    public Reader<IngestRecord> restoreReader(Configuration config, FileSourceSplit split) throws IOException {
        long skip = split.getReaderPosition()
                .map(CheckpointedPosition::getRecordsAfterOffset)
                .orElse(0L);
        return new FileReader(split.path(), skip, deadLetters);
    }

    @Override
    public boolean isSplittable() {
        return false;
    }

    @Override
    public TypeInformation<IngestRecord> getProducedType() {
        return TypeInformation.of(IngestRecord.class);
    }

    private static final class FileReader implements BulkFormat.Reader<IngestRecord> {
        private final String file;
        private final InputStream in;
        private final PubMedXmlReader items;
        private final OutputFormat deadLetters;
        private long emitted;

        FileReader(Path path, long skip, OutputFormat deadLetters) throws IOException {
            this.file = path.getName();
            this.deadLetters = deadLetters;
            InputStream raw = path.getFileSystem().open(path);
            InflaterInputStreamFactory<?> inflater = StandardDeCompressors.getDecompressorForFileName(path.getPath());
            InputStream opened;
            try {
                opened = new BufferedInputStream(inflater == null ? raw : inflater.create(raw));
            } catch (IOException e) {
                // Not even a gzip header: the reader below reports the empty stream as a malformed file.
                raw.close();
                opened = InputStream.nullInputStream();
            }
            this.in = opened;
            this.items = new PubMedXmlReader(in, "pubmed:" + file);
            while (emitted < skip && items.next() != null) {
                emitted++;
            }
        }

        @Override
        public RecordIterator<IngestRecord> readBatch() {
            IngestRecord[] batch = new IngestRecord[BATCH];
            int n = 0;
            for (FeedItem item; n < BATCH && (item = items.next()) != null; ) {
                batch[n++] = FeedRecords.of(item, file, deadLetters);
            }
            if (n == 0) {
                return null;
            }
            ArrayResultIterator<IngestRecord> it = new ArrayResultIterator<>();
            it.set(batch, n, CheckpointedPosition.NO_OFFSET, emitted);
            emitted += n;
            return it;
        }

        @Override
        public void close() throws IOException {
            items.close();
            in.close();
        }
    }
}
