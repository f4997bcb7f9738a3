package dev.bionerstream.bench;

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
        assertThat(ThreadCpu.group("GC Thread#1")).isEqualTo(ThreadCpu.GC);
        assertThat(ThreadCpu.group("G1 Conc#0")).isEqualTo(ThreadCpu.GC);
        assertThat(ThreadCpu.group("VM Thread")).isEqualTo(ThreadCpu.GC);
        assertThat(ThreadCpu.group("C2 CompilerThre")).isEqualTo(ThreadCpu.JIT);
    }

    @Test
    void readsTheCpuTicksOfAThreadWhoseNameHoldsSpacesAndParentheses() {
        String stat = "4242 (C2 (Compiler) x) S 1 4200 4200 0 -1 4194368 120 0 0 0 345 67 0 0 20 0 30 0 900";
        assertThat(ThreadCpu.ticks(stat)).isEqualTo(345 + 67);
    }

    @Test
    void seesTheJvmsOwnCompilerAndVmThreadsThatJavaDoesNotList() {
        ThreadCpu.Sample sample = new ThreadCpu().sample();
        assertThat(sample.names().entrySet())
                .as("the JVM's own threads read from /proc/self/task, by minus their Linux thread id")
                .anySatisfy(e -> {
                    assertThat(e.getKey()).isNegative();
                    assertThat(e.getValue()).isEqualTo("VM Thread");
                })
                .anySatisfy(e -> assertThat(ThreadCpu.group(e.getValue())).isEqualTo(ThreadCpu.JIT));
        assertThat(sample.threadNanos().values())
                .allSatisfy(ns -> assertThat(ns).isNotNegative());
    }

    @Test
    void whatNoJavaThreadUsedIsNative() {
        ThreadCpu.Sample before =
                new ThreadCpu.Sample(1_000, Map.of(1L, 100L, 2L, 50L), Map.of(1L, "bioner-micro-batcher", 2L, "main"));
        ThreadCpu.Sample after = new ThreadCpu.Sample(
                2_000,
                Map.of(1L, 400L, 2L, 70L, 3L, 30L, -77L, 200L),
                Map.of(1L, "bioner-micro-batcher", 2L, "main", 3L, "main", -77L, "GC Thread#0")); // 3, 77 started
        Map<String, Long> groups = ThreadCpu.byGroup(before, after);
        assertThat(groups.get(ThreadCpu.MODEL)).isEqualTo(300);
        assertThat(groups.get(ThreadCpu.BENCH)).isEqualTo(50);
        assertThat(groups.get(ThreadCpu.GC)).isEqualTo(200);
        assertThat(groups.get(ThreadCpu.NATIVE)).isEqualTo(1_000 - 350 - 200);
        assertThat(groups.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(1_000);
        assertThat(groups.keySet()).startsWith(ThreadCpu.MODEL, ThreadCpu.NATIVE);
    }
}
