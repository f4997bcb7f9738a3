package dev.bionerstream.ingest;

import dev.bionerstream.avro.DeadLetter;
import dev.bionerstream.kafka.DeadLetters;
import dev.bionerstream.kafka.OutputFormat;
import dev.bionerstream.pubmed.FeedItem;
import dev.bionerstream.records.InvalidRecordException;
import dev.bionerstream.records.JsonAbstracts;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Feed items of one file -> the records the ingest job writes. */
final class FeedRecords {
    static final String STAGE = "ingest";
    private static final Pattern ARTICLE = Pattern.compile("^article (\\d+)");

    private FeedRecords() {}

    static IngestRecord of(FeedItem item, String file, OutputFormat deadLetters) {
        if (item instanceof FeedItem.Citation c) {
            return new IngestRecord(IngestRecord.Kind.CITATION, c.value().getId(), JsonAbstracts.write(c.value()));
        }
        if (item instanceof FeedItem.Deletion d) {
            return new IngestRecord(IngestRecord.Kind.DELETION, d.id(), null);
        }
        FeedItem.Malformed m = (FeedItem.Malformed) item;
        return deadLetter(file, m.position(), m.reason(), deadLetters);
    }

    /**
     * A dead letter for a file: the DeadLetter's topic field holds the file, partition is -1 and
     * offset the article number; the message says where exactly.
     */
    static IngestRecord deadLetter(String file, String position, String reason, OutputFormat format) {
        long article = articleNumber(position);
        DeadLetter d = DeadLetters.of(
                null, file, -1, article, STAGE, new InvalidRecordException(file + ", " + position + ": " + reason));
        return new IngestRecord(IngestRecord.Kind.DEAD_LETTER, file + "@" + position, format.bytes(d));
    }

    private static long articleNumber(String position) {
        Matcher m = ARTICLE.matcher(position);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }
}
