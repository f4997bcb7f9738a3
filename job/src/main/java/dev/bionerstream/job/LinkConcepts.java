package dev.bionerstream.job;

import dev.bionerstream.avro.ConceptLink;
import dev.bionerstream.linking.EntityLinker;
import dev.bionerstream.linking.LinkSettings;
import dev.bionerstream.linking.Linkers;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;

/**
 * The "link concepts" stage: each document's mentions linked to their concepts
 * ({@link DocumentRecords#linked}). Its own operator, so linking runs on the task threads of the
 * stage and never on the micro-batcher's delivery thread that every slot's inference shares; the
 * linker is the TaskManager's one ({@link Linkers#shared}: its vocabularies loaded once per JVM,
 * read by every slot).
 */
final class LinkConcepts extends RichMapFunction<DocumentUpdate, DocumentUpdate> {
    private final LinkSettings settings;
    private transient EntityLinker linker;
    private transient Counter linked;
    private transient Counter nil;
    private transient Histogram latency;

    LinkConcepts(LinkSettings settings) {
        this.settings = settings;
    }

    @Override
    public void open(OpenContext ctx) {
        linker = Linkers.shared(settings);
        MetricGroup g = getRuntimeContext().getMetricGroup().addGroup(Metrics.GROUP);
        linked = g.counter(Metrics.MENTIONS_LINKED);
        nil = g.counter(Metrics.MENTIONS_NIL);
        latency = g.histogram(Metrics.LINK_LATENCY_MS, new DescriptiveStatisticsHistogram(1000));
    }

    @Override
    public DocumentUpdate map(DocumentUpdate u) {
        if (u.isDeletion()) {
            return u;
        }
        long start = System.nanoTime();
        DocumentUpdate out = DocumentUpdate.of(DocumentRecords.linked(u.document, linker));
        latency.update((System.nanoTime() - start) / 1_000_000);
        for (ConceptLink l : out.document.getLinks()) {
            if (l.getConceptId() != null) {
                linked.inc();
            } else if (l.getVocabulary() != null) {
                nil.inc();
            }
        }
        return out;
    }
}
