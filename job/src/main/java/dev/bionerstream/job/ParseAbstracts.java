package dev.bionerstream.job;

import dev.bionerstream.avro.Abstract;
import dev.bionerstream.kafka.DeadLetters;
import dev.bionerstream.kafka.RawRecord;
import dev.bionerstream.records.DocumentIds;
import dev.bionerstream.records.InvalidRecordException;
import dev.bionerstream.records.RecordParser;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Raw records -> valid abstracts, and tombstones -> deletions of the documents their keys name;
 * anything else leaves through {@link DeadLetters#TAG} with its reason.
 * No record can make this operator throw: Flink would restart on that same record for ever.
 */
public class ParseAbstracts extends ProcessFunction<RawRecord, SourcedAbstract> {
    private static final Logger LOG = LoggerFactory.getLogger(ParseAbstracts.class);

    private final RecordParser parser;
    private transient Counter deadLetters;

    public ParseAbstracts(RecordParser parser) {
        this.parser = parser;
    }

    @Override
    public void open(OpenContext ctx) {
        TaskManagerClassLoading.requireLibrariesFromTheJobJar(ParseAbstracts.class);
        deadLetters =
                getRuntimeContext().getMetricGroup().addGroup(Metrics.GROUP).counter(Metrics.DEAD_LETTERS);
    }

    @Override
    public void processElement(RawRecord r, Context ctx, Collector<SourcedAbstract> out) {
        if (r.value == null) {
            deletion(r, ctx, out);
            return;
        }
        Abstract parsed;
        try {
            parsed = parser.parse(r.value);
        } catch (InvalidRecordException e) {
            deadLetter(r, ctx, e);
            return;
        } catch (RuntimeException e) {
            // A parser bug, not bad input: the record still goes, and the stack trace is logged so it gets fixed.
            LOG.warn(
                    "Parsing record {}-{}@{} failed unexpectedly; sent to the dead letters",
                    r.topic,
                    r.partition,
                    r.offset,
                    e);
            deadLetter(r, ctx, e);
            return;
        }
        // Outside the try: a failure of a chained operator downstream is not this record's parse error.
        out.collect(new SourcedAbstract(parsed, r));
    }

    /** A tombstone keyed by a document id deletes that document downstream. */
    private void deletion(RawRecord r, Context ctx, Collector<SourcedAbstract> out) {
        String id;
        try {
            id = DocumentIds.deletedId(r.key);
        } catch (InvalidRecordException e) {
            deadLetter(r, ctx, e);
            return;
        }
        out.collect(SourcedAbstract.deletion(id, r));
    }

    private void deadLetter(RawRecord r, Context ctx, Exception e) {
        deadLetters.inc();
        ctx.output(DeadLetters.TAG, DeadLetters.of(r.value, r.topic, r.partition, r.offset, DeadLetters.PARSE, e));
    }
}
