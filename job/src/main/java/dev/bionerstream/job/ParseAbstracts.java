package dev.bionerstream.job;

import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/** Raw records -> valid abstracts; anything else leaves through {@link DeadLetters#TAG} with its reason. */
public class ParseAbstracts extends ProcessFunction<RawRecord, SourcedAbstract> {
    private final AbstractParser parser;
    private transient Counter deadLetters;

    public ParseAbstracts(AbstractParser parser) {
        this.parser = parser;
    }

    @Override
    public void open(org.apache.flink.api.common.functions.OpenContext ctx) {
        deadLetters = getRuntimeContext().getMetricGroup().addGroup(Metrics.GROUP).counter(Metrics.DEAD_LETTERS);
    }

    @Override
    public void processElement(RawRecord r, Context ctx, Collector<SourcedAbstract> out) {
        try {
            out.collect(new SourcedAbstract(parser.parse(r.value), r));
        } catch (InvalidRecordException e) {
            deadLetters.inc();
            ctx.output(DeadLetters.TAG, DeadLetters.of(r.value, r.topic, r.partition, r.offset, DeadLetters.PARSE, e));
        }
    }
}
