package dev.bionerstream.bench;

import dev.bionerstream.demo.TopicWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A steady stream at a fixed rate, and how long each record took to become visible: from its
 * timestamp on the input topic (the producer's clock, the same JVM's as the watches') to the moment
 * each watch first saw its document. Records are sent on a schedule, not as fast as possible, so a
 * late send does not bunch the next ones.
 */
final class LatencyRun {
    /** A run gives up when no watch saw a new document for this long. */
    private static final Duration STALL = Duration.ofMinutes(2);

    private final String bootstrapServers;
    private final String topic;
    private final List<VisibilityWatch> watches;

    LatencyRun(String bootstrapServers, String topic, List<VisibilityWatch> watches) {
        this.bootstrapServers = bootstrapServers;
        this.topic = topic;
        this.watches = watches;
    }

    /**
     * What a run measured: per watch, in the order given, the latencies; and each record's timestamp
     * on the input topic (epoch milliseconds).
     */
    record Measured(List<Latencies> latencies, Map<String, Long> appended) {}

    /** The latencies of the {@code records} (id -> JSON) sent at {@code perSecond}. */
    Measured run(Map<String, String> records, double perSecond) throws Exception {
        Map<String, Long> appended = new ConcurrentHashMap<>();
        records.keySet().forEach(id -> watches.forEach(w -> w.await(id)));
        send(records, perSecond, appended);
        awaitAll(records.size());
        List<Latencies> out = new ArrayList<>();
        for (VisibilityWatch w : watches) {
            List<Long> millis = new ArrayList<>();
            w.firstSeen().forEach((id, seen) -> millis.add(seen - appended.get(id)));
            out.add(Latencies.of(millis));
        }
        return new Measured(out, appended);
    }

    private void send(Map<String, String> records, double perSecond, Map<String, Long> appended) throws Exception {
        long start = System.nanoTime();
        long i = 0;
        try (var producer = TopicWriter.producer(bootstrapServers)) {
            for (Map.Entry<String, String> r : records.entrySet()) {
                long due = start + (long) (i++ * 1e9 / perSecond);
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                producer.send(
                        new ProducerRecord<>(topic, r.getValue().getBytes(StandardCharsets.UTF_8)),
                        (metadata, error) -> {
                            if (error == null) {
                                appended.put(r.getKey(), metadata.timestamp());
                            }
                        });
            }
        }
        if (appended.size() < records.size()) {
            throw new IllegalStateException(
                    "the broker took " + appended.size() + " of " + records.size() + " records of the latency run");
        }
    }

    private void awaitAll(int expected) throws InterruptedException {
        long lastProgress = System.nanoTime();
        int seen = 0;
        while (System.nanoTime() - lastProgress < STALL.toNanos()) {
            int now = watches.stream().mapToInt(w -> w.firstSeen().size()).sum();
            if (now == expected * watches.size()) {
                return;
            }
            if (now > seen) {
                seen = now;
                lastProgress = System.nanoTime();
            }
            Thread.sleep(100);
        }
        for (VisibilityWatch w : watches) {
            if (w.firstSeen().size() < expected) {
                System.err.printf(
                        "%s saw %d of %d documents, then nothing new for %s%s%n",
                        w.name,
                        w.firstSeen().size(),
                        expected,
                        STALL,
                        w.lastError() == null ? "" : "; its last error: " + w.lastError());
            }
        }
    }
}
