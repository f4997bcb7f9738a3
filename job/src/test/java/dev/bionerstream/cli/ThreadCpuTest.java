package dev.bionerstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which group a thread's CPU time goes to, and what is left for the threads Java does not see. */
class ThreadCpuTest {
    @Test
    void groupsThreadsByTheNamesFlinkKafkaAndTheJobGiveThem() {
        assertThat(ThreadCpu.group("bioner-micro-batcher")).isEqualTo(ThreadCpu.MODEL);
        assertThat(ThreadCpu.group("bioner-batch-delivery")).isEqualTo(ThreadCpu.DELIVERY);
        assertThat(ThreadCpu.group(
                        "Source: Kafka: abstracts -> parse and validate -> MRC inference (micro-batched) (1/1)#0"))
                .isEqualTo(ThreadCpu.TASKS);
        assertThat(ThreadCpu.group("Source Data Fetcher for Source: Kafka: abstracts -> parse and validate (1/1)#0"))
                .isEqualTo(ThreadCpu.KAFKA_CLIENTS);
        assertThat(ThreadCpu.group("kafka-producer-network-thread | producer-bioner-stream-documents-0-4"))
                .isEqualTo(ThreadCpu.KAFKA_CLIENTS);
        assertThat(ThreadCpu.group("Time Trigger for Source: Kafka: abstracts (1/1)#0"))
                .isEqualTo(ThreadCpu.FLINK);
        assertThat(ThreadCpu.group("flink-pekko.actor.default-dispatcher-5")).isEqualTo(ThreadCpu.FLINK);
        assertThat(ThreadCpu.group("data-plane-kafka-request-handler-3")).isEqualTo(ThreadCpu.BROKER);
        assertThat(ThreadCpu.group("kafka-0-raft-io-thread")).isEqualTo(ThreadCpu.BROKER);
        assertThat(ThreadCpu.group("TxnMarkerSenderThread-0")).isEqualTo(ThreadCpu.BROKER);
        assertThat(ThreadCpu.group("main")).isEqualTo(ThreadCpu.BENCH);
        assertThat(ThreadCpu.group("something else")).isEqualTo(ThreadCpu.OTHER);
    }

    @Test
    void whatNoJavaThreadUsedIsNative() {
        ThreadCpu.Sample before =
                new ThreadCpu.Sample(1_000, Map.of(1L, 100L, 2L, 50L), Map.of(1L, "bioner-micro-batcher", 2L, "main"));
        ThreadCpu.Sample after = new ThreadCpu.Sample(
                2_000,
                Map.of(1L, 400L, 2L, 70L, 3L, 30L),
                Map.of(1L, "bioner-micro-batcher", 2L, "main", 3L, "main")); // thread 3 started in between
        Map<String, Long> groups = ThreadCpu.byGroup(before, after);
        assertThat(groups.get(ThreadCpu.MODEL)).isEqualTo(300);
        assertThat(groups.get(ThreadCpu.BENCH)).isEqualTo(50);
        assertThat(groups.get(ThreadCpu.NATIVE)).isEqualTo(1_000 - 350);
        assertThat(groups.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(1_000);
        assertThat(groups.keySet()).startsWith(ThreadCpu.MODEL, ThreadCpu.NATIVE);
    }
}
