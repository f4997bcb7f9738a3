package dev.bionerstream.cluster;

import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Whether a job has read its whole input topic and checkpointed it: the Kafka source commits its
 * group's offsets when a checkpoint completes, the same moment its transactional sinks commit.
 */
final class ConsumerProgress {
    private ConsumerProgress() {}

    /** True when {@code group}'s committed offset is the end offset on every partition of {@code topic}. */
    static boolean checkpointedAll(String bootstrapServers, String group, String topic) throws Exception {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrapServers);
        try (Admin admin = Admin.create(p)) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata()
                    .get();
            var partitions = admin.describeTopics(java.util.List.of(topic))
                    .allTopicNames()
                    .get()
                    .get(topic)
                    .partitions();
            Map<TopicPartition, OffsetSpec> latest = partitions.stream()
                    .collect(Collectors.toMap(i -> new TopicPartition(topic, i.partition()), i -> OffsetSpec.latest()));
            Map<TopicPartition, ListOffsetsResultInfo> ends =
                    admin.listOffsets(latest).all().get();
            return ends.entrySet().stream().allMatch(e -> {
                OffsetAndMetadata c = committed.get(e.getKey());
                return e.getValue().offset() == 0
                        || (c != null && c.offset() >= e.getValue().offset());
            });
        }
    }
}
