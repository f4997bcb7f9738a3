package dev.bionerstream.job;

import dev.bionerstream.avro.DeadLetter;
import dev.bionerstream.avro.EntityEvent;
import dev.bionerstream.kafka.DeadLetters;
import dev.bionerstream.kafka.RawRecord;
import dev.bionerstream.records.InputRecordDecoder;
import dev.bionerstream.serving.SessionFactory;
import java.util.concurrent.TimeUnit;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The pipeline as a function of the input stream: parse and validate -> annotate (async,
 * micro-batched, one call per document: split, (sentence, type) windows, infer, gather,
 * deduplicate) -> link concepts (unless {@code link.enabled} is false) -> per-document records and
 * entity events; bad records and documents whose
 * inference keeps failing go to the dead-letter stream. Tombstones pass through as deletions.
 *
 * <p>Inference completes out of order but results leave in input order, so the changes to one
 * document (keyed to one partition) reach the outputs in the order they came: a revision or a
 * deletion never lands before the version it replaces.
 */
public final class Topology {
    private Topology() {}

    /** The job's three output streams. */
    public record Outputs(
            DataStream<DocumentUpdate> documents,
            DataStream<EntityEvent> entities,
            DataStream<DeadLetter> deadLetters) {}

    public static Outputs build(DataStream<RawRecord> input, JobConfig cfg, SessionFactory factory) {
        SingleOutputStreamOperator<SourcedAbstract> parsed = input.process(
                        new ParseAbstracts(new InputRecordDecoder(cfg.inputFormat())))
                .name("parse and validate")
                .uid("parse");

        DataStream<Outcome> outcomes = AsyncDataStream.orderedWait(
                        parsed,
                        new AnnotateFunction(cfg.models(), factory, cfg.asyncRetries()),
                        cfg.asyncTimeout().toMillis(),
                        TimeUnit.MILLISECONDS,
                        cfg.asyncCapacity())
                .name("MRC inference (micro-batched)")
                .uid("annotate");

        SingleOutputStreamOperator<DocumentUpdate> routed =
                outcomes.process(new RouteOutcomes()).name("route outcomes").uid("route");
        DataStream<DocumentUpdate> documents = cfg.linking()
                .<DataStream<DocumentUpdate>>map(settings -> routed.map(new LinkConcepts(settings))
                        .name("link concepts")
                        .uid("link"))
                .orElse(routed);
        DataStream<EntityEvent> entities = documents
                .flatMap((DocumentUpdate u, Collector<EntityEvent> out) -> {
                    if (!u.isDeletion()) {
                        DocumentRecords.events(u.document).forEach(out::collect);
                    }
                })
                .returns(EntityEvent.class)
                .name("entity events")
                .uid("events");
        DataStream<DeadLetter> deadLetters =
                parsed.getSideOutput(DeadLetters.TAG).union(routed.getSideOutput(DeadLetters.TAG));
        return new Outputs(documents, entities, deadLetters);
    }

    /** Documents and deletions on the main output, dead letters on the side. */
    static final class RouteOutcomes extends ProcessFunction<Outcome, DocumentUpdate> {
        private transient Counter deadLetters;
        private transient Histogram recordAge;

        @Override
        public void open(org.apache.flink.api.common.functions.OpenContext ctx) {
            MetricGroup g = getRuntimeContext().getMetricGroup().addGroup(Metrics.GROUP);
            deadLetters = g.counter(Metrics.DEAD_LETTERS);
            recordAge = g.histogram(Metrics.RECORD_AGE_MS, new DescriptiveStatisticsHistogram(1000));
        }

        @Override
        public void processElement(Outcome o, Context ctx, Collector<DocumentUpdate> out) {
            Long appended = ctx.timestamp(); // the Kafka source's record timestamp, kept through the operators
            if (appended != null) {
                recordAge.update(Math.max(0, System.currentTimeMillis() - appended));
            }
            if (o.isFailed()) {
                deadLetters.inc();
                ctx.output(DeadLetters.TAG, o.deadLetter);
            } else {
                out.collect(o.update);
            }
        }
    }
}
