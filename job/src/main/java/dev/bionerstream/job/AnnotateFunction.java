package dev.bionerstream.job;

import dev.bionerstream.avro.Abstract;
import dev.bionerstream.serving.DocumentAnnotator;
import dev.bionerstream.serving.EngineFactory;
import dev.bionerstream.serving.ServingConfig;
import dev.bionerstream.serving.SharedModels;
import dev.bionerstream.serving.WindowResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.Meter;
import org.apache.flink.metrics.MeterView;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;
import org.apache.flink.streaming.api.functions.async.ResultFuture;
import org.apache.flink.streaming.api.functions.async.RichAsyncFunction;

/**
 * One async call per document: its (sentence, type) windows go to the JVM's shared micro-batcher,
 * and the call completes with the document's entities. A failure or a timeout completes with a
 * dead letter instead of an exception, so the retry strategy can try again and the job never
 * fails on one bad document.
 */
public class AnnotateFunction extends RichAsyncFunction<SourcedAbstract, Outcome> {
    private final ServingConfig serving;
    private final EngineFactory factory;

    private transient SharedModels.Lease lease;
    private transient DocumentAnnotator annotator;
    private transient DocumentRecords records;
    private transient Histogram batchSize;
    private transient Histogram queueWait;
    private transient Histogram modelLatency;
    private transient Meter sequences;
    private transient Meter entities;

    public AnnotateFunction(ServingConfig serving, EngineFactory factory) {
        this.serving = serving;
        this.factory = factory;
    }

    @Override
    public void open(OpenContext ctx) {
        lease = SharedModels.acquire(serving, factory);
        annotator = new DocumentAnnotator(lease.engine(), lease.batcher());
        records = new DocumentRecords(lease.engine().manifest());
        MetricGroup g = getRuntimeContext().getMetricGroup().addGroup(Metrics.GROUP);
        batchSize = g.histogram(Metrics.BATCH_SIZE, new DescriptiveStatisticsHistogram(1000));
        queueWait = g.histogram(Metrics.QUEUE_WAIT_MS, new DescriptiveStatisticsHistogram(1000));
        modelLatency = g.histogram(Metrics.MODEL_LATENCY_MS, new DescriptiveStatisticsHistogram(1000));
        sequences = g.meter(Metrics.SEQUENCES_PER_SECOND, new MeterView(60));
        entities = g.meter(Metrics.ENTITIES_PER_SECOND, new MeterView(60));
    }

    @Override
    public void asyncInvoke(SourcedAbstract in, ResultFuture<Outcome> result) {
        Abstract a = in.value;
        try {
            annotator.annotate(a.getTitle(), a.getAbstractText()).whenComplete((doc, error) -> {
                if (error != null) {
                    result.complete(List.of(failed(in, error)));
                    return;
                }
                for (WindowResult w : doc.windows()) {
                    batchSize.update(w.batchSize());
                    queueWait.update(w.queueNanos() / 1_000_000);
                    modelLatency.update(w.modelNanos() / 1_000_000);
                }
                sequences.markEvent(doc.windows().size());
                entities.markEvent(doc.entities().size());
                result.complete(List.of(Outcome.of(records.document(a, doc, Instant.now()))));
            });
        } catch (RuntimeException e) {
            result.complete(List.of(failed(in, e)));
        }
    }

    @Override
    public void timeout(SourcedAbstract in, ResultFuture<Outcome> result) {
        result.complete(List.of(failed(in, new TimeoutException("inference of document " + in.value.getId() + " timed out"))));
    }

    private static Outcome failed(SourcedAbstract in, Throwable error) {
        return Outcome.failed(DeadLetters.of(avroBytes(in.value), in.topic, in.partition, in.offset, DeadLetters.INFERENCE, error));
    }

    /** The abstract as binary Avro: the dead letter of a parsed record carries what was parsed. */
    static byte[] avroBytes(Abstract a) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
            new SpecificDatumWriter<>(Abstract.class).write(a, enc);
            enc.flush();
            return out.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        if (lease != null) {
            lease.close();
        }
    }
}
