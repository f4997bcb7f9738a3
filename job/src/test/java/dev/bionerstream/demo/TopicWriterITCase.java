package dev.bionerstream.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every record {@link TopicWriter} was given is on the topic when it returns, also when the topic was
 * created a moment before, as the tests, the demo and {@code ./bioner import} write. The writer used
 * to send with Kafka 4.2's idempotent producer without looking at the results: in 3 of 8 full
 * ClusterITCase runs a new partition's first batch expired unsent after 120 s and 5 or 10 input
 * documents were never on the topic (the test then blamed the job). This test did not catch that
 * producer in 3 runs of 40 topics; it pins the writer's promise, and a writer that loses a record fails
 * it.
 */
@RunsBesideOthers
class TopicWriterITCase {
    @RegisterExtension
    static final SharedService<EmbeddedKafka> KAFKA = SharedService.kafka();

    static final int TOPICS = 40;
    static final int RECORDS = 12;

    @Test
    void everyRecordIsOnAFreshlyCreatedTopic() throws Exception {
        EmbeddedKafka kafka = KAFKA.get();
        List<String> values = IntStream.range(0, RECORDS)
                .mapToObj(i -> "{\"id\":\"doc-" + i + "\",\"text\":\"" + "x".repeat(1500) + "\"}")
                .toList();
        List<String> topics = new ArrayList<>();
        for (int t = 0; t < TOPICS; t++) {
            String topic = "fresh-" + t;
            // as the tests create a job's topics: input, outputs and dead letters in one request
            kafka.createTopics(2, topic, topic + "-documents", topic + "-entities", topic + "-dlq");
            TopicWriter.produce(kafka.bootstrapServers(), topic, values);
            topics.add(topic);
        }
        assertThat(recordsPerTopic(kafka, topics))
                .as("records on each of %d topics written right after their creation", TOPICS)
                .allSatisfy((topic, n) -> assertThat(n).as(topic).isEqualTo((long) RECORDS));
    }

    private static Map<String, Long> recordsPerTopic(EmbeddedKafka kafka, List<String> topics) throws Exception {
        Properties p = new Properties();
        p.put("bootstrap.servers", kafka.bootstrapServers());
        try (Admin admin = Admin.create(p)) {
            Map<TopicPartition, OffsetSpec> ends = topics.stream()
                    .flatMap(t -> IntStream.range(0, 2).mapToObj(i -> new TopicPartition(t, i)))
                    .collect(Collectors.toMap(tp -> tp, tp -> OffsetSpec.latest()));
            return admin.listOffsets(ends).all().get().entrySet().stream()
                    .collect(Collectors.groupingBy(
                            e -> e.getKey().topic(), TreeMap::new, Collectors.summingLong(e -> e.getValue()
                                    .offset())));
        }
    }
}
