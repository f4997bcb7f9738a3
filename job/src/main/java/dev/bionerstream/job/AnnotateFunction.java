package dev.bionerstream.job;

import dev.bionerstream.avro.Abstract;
import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.batching.ModelBrokenException;
import dev.bionerstream.batching.TooManyWindowsException;
import dev.bionerstream.engine.Extraction;
import dev.bionerstream.engine.Segmentation;
import dev.bionerstream.engine.WindowResult;
import dev.bionerstream.kafka.AvroBytes;
import dev.bionerstream.kafka.DeadLetters;
import dev.bionerstream.serving.ModelRoutes;
import dev.bionerstream.serving.ServingConfig;
import dev.bionerstream.serving.SessionFactory;
import dev.bionerstream.serving.SharedModels;
import java.io.Serializable;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.Meter;
import org.apache.flink.metrics.MeterView;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;
import org.apache.flink.streaming.api.functions.async.ResultFuture;
import org.apache.flink.streaming.api.functions.async.RichAsyncFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One async call per document: the engine encodes its title and abstract into (sentence, type)
 * windows, the JVM's shared micro-batcher runs them, and the call completes with the document's
 * entities. A failure or a timeout completes with a dead letter instead of an exception, so the job
 * never fails on one bad document: a failed batch is retried (async.retries); a timeout is final
 * (async.timeout covers all attempts together) and a timed-out document's windows still queued are
 * withdrawn so they do not delay the documents behind it. Only a broken
 * model fails the task, so that Flink restarts it from the last checkpoint. The record's language
 * picks the model ({@link ModelRoutes}); a deletion is one per model, since each model's record of
 * the document has its own id in the index.
 */
public class AnnotateFunction extends RichAsyncFunction<SourcedAbstract, Outcome> {
    private static final Logger LOG = LoggerFactory.getLogger(AnnotateFunction.class);
    /** Pause before another attempt of a document whose model call failed. */
    static final long RETRY_DELAY_MS = 1000;

    private final ModelRoutes models;
    private final SessionFactory factory;
    private final int retries;
    private final Registry registry;

    /** Where the operator finds the shared models: the JVM's, or a test's own. */
    @FunctionalInterface
    interface Registry extends Serializable {
        SharedModels get();
    }

    /** Per model of {@link #models}: the shared engine and batcher, and the records it produces. */
    private transient Map<ServingConfig, Served> served;

    private transient Map<SourcedAbstract, CompletableFuture<Extraction>> inFlight;
    private transient Histogram batchSize;
    private transient Histogram queueWait;
    private transient Histogram modelLatency;
    private transient Meter sequences;
    private transient Meter entities;
    private transient Counter gateSkipped;

    private record Served(SharedModels.Lease lease, DocumentRecords records, BatcherGauges gauges) {}

    /** {@code retries}: further attempts of a document whose model call failed, before its dead letter. */
    public AnnotateFunction(ModelRoutes models, SessionFactory factory, int retries) {
        this(models, factory, retries, SharedModels::jvm);
    }

    AnnotateFunction(ModelRoutes models, SessionFactory factory, int retries, Registry registry) {
        this.models = models;
        this.factory = factory;
        this.retries = retries;
        this.registry = registry;
    }

    @Override
    public void open(OpenContext ctx) {
        served = new LinkedHashMap<>();
        MetricGroup g = getRuntimeContext().getMetricGroup().addGroup(Metrics.GROUP);
        try {
            for (ServingConfig model : models.all()) {
                SharedModels.Lease lease = registry.get().acquire(model, factory);
                String id = lease.engine().manifest().id();
                served.put(
                        model,
                        new Served(
                                lease,
                                new DocumentRecords(lease.engine().manifest()),
                                new BatcherGauges(lease.batcher(), g.addGroup("model", id))));
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        inFlight = new ConcurrentHashMap<>();
        g.gauge(Metrics.DOCUMENTS_IN_FLIGHT, (Gauge<Integer>) () -> inFlight.size());
        batchSize = g.histogram(Metrics.BATCH_SIZE, new DescriptiveStatisticsHistogram(1000));
        queueWait = g.histogram(Metrics.QUEUE_WAIT_MS, new DescriptiveStatisticsHistogram(1000));
        modelLatency = g.histogram(Metrics.MODEL_LATENCY_MS, new DescriptiveStatisticsHistogram(1000));
        sequences = g.meter(Metrics.SEQUENCES_PER_SECOND, new MeterView(60));
        entities = g.meter(Metrics.ENTITIES_PER_SECOND, new MeterView(60));
        gateSkipped = g.counter(Metrics.GATE_SKIPPED_PASSES);
    }

    @Override
    public void asyncInvoke(SourcedAbstract in, ResultFuture<Outcome> result) {
        if (in.isDeletion()) {
            // Through this operator all the same: ordered, a deletion cannot overtake the document it deletes.
            result.complete(served.values().stream()
                    .map(m -> Outcome.deleted(in.deletedId, m.records().eventId(in.deletedId)))
                    .toList());
            return;
        }
        attempt(in, result, 0);
    }

    /**
     * One model call for {@code in}; a failure another attempt could avoid is tried again {@link
     * #RETRY_DELAY_MS} later, up to {@link #retries} times, then completes with its dead letter. The
     * retries are this function's, not Flink's retry strategy: its retry path hands a result to the
     * operator's mailbox from inside the mailbox, which fails the task when the result arrives while
     * a stop-with-savepoint finishes it (RejectedExecutionException, mailbox QUIESCED), and the stop
     * and the job with it.
     */
    private void attempt(SourcedAbstract in, ResultFuture<Outcome> result, int attempt) {
        Abstract a = in.value;
        Served model = served.get(models.forLanguage(a.getLanguage()));
        CompletableFuture<Extraction> call = model.lease()
                .engine()
                .extract(
                        DocumentRecords.text(a).fields(),
                        Segmentation.SENTENCES,
                        model.lease().batcher());
        inFlight.put(in, call);
        LOG.debug("{}-{}@{} ({}): model call, attempt {}", in.topic, in.partition, in.offset, a.getId(), attempt);
        call.whenComplete((x, error) -> {
            inFlight.remove(in, call);
            LOG.debug("{}-{}@{} ({}): model call done, error: {}", in.topic, in.partition, in.offset, a.getId(), error);
            if (error == null) {
                result.complete(List.of(Outcome.of(annotated(a, x, model.records()))));
            } else if (unwrap(error) instanceof ModelBrokenException broken) {
                result.completeExceptionally(broken);
            } else if (call.isCancelled()) {
                return;
            } else if (attempt < retries && retryable(unwrap(error))) {
                // Held in inFlight while it waits, so that a timeout or close() cancels the next attempt.
                CompletableFuture<Extraction> pause = new CompletableFuture<>();
                inFlight.put(in, pause);
                CompletableFuture.delayedExecutor(RETRY_DELAY_MS, TimeUnit.MILLISECONDS)
                        .execute(() -> {
                            if (inFlight.remove(in, pause) && !pause.isCancelled()) {
                                attempt(in, result, attempt + 1);
                            }
                        });
            } else {
                result.complete(List.of(failed(in, unwrap(error))));
            }
        });
    }

    private DocumentEntities annotated(Abstract a, Extraction x, DocumentRecords records) {
        for (WindowResult w : x.windows()) {
            batchSize.update(w.batchSize());
            queueWait.update(w.queueNanos() / 1_000_000);
            modelLatency.update(w.modelNanos() / 1_000_000);
        }
        sequences.markEvent(x.windows().size());
        gateSkipped.inc(x.skippedPasses());
        var document = records.document(a, x, Instant.now());
        entities.markEvent(document.getEntities().size());
        return document;
    }

    @Override
    public void timeout(SourcedAbstract in, ResultFuture<Outcome> result) {
        CompletableFuture<Extraction> call = inFlight.remove(in);
        if (call != null) {
            call.cancel(false);
        }
        result.complete(List.of(failed(
                in,
                new TimeoutException("inference of document " + in.value.getId()
                        + " did not finish within async.timeout; its queued model passes were withdrawn"))));
    }

    private static Throwable unwrap(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }

    private static Outcome failed(SourcedAbstract in, Throwable error) {
        return Outcome.failed(DeadLetters.of(
                AvroBytes.of(in.value), in.topic, in.partition, in.offset, DeadLetters.INFERENCE, error));
    }

    private static boolean retryable(Throwable error) {
        return !(error instanceof TooManyWindowsException || error instanceof TimeoutException);
    }

    /**
     * Cancels the documents still in flight before the model goes: they are in the operator's
     * checkpointed state and run again after a restore, and nothing may complete them now. The shared
     * batcher runs what is queued when its last lease closes, and a result arriving after a
     * stop-with-savepoint (no drain) reaches Flink's AsyncWaitOperator past its mailbox: with retries
     * configured it fails the finishing task ({@code RejectedExecutionException}, mailbox QUIESCED),
     * the stop fails and the job with it.
     */
    @Override
    public void close() {
        if (inFlight != null) {
            inFlight.values().forEach(call -> call.cancel(false));
        }
        if (served != null) {
            for (Served m : served.values()) {
                m.gauges().close();
                m.lease().close();
            }
        }
    }
}
