package dev.bionerstream.cli;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * CPU time of this process by group of threads, for a benchmark that runs the whole job in one JVM
 * (local cluster, embedded broker): which part of the job competes with the model for the cores.
 * Threads are grouped by name; what no Java thread accounts for (ONNX Runtime's own worker threads,
 * the garbage collector, the JIT compiler) is the process's CPU time minus theirs.
 */
final class ThreadCpu {
    /** Group names, in the order they are printed. */
    static final String MODEL = "model thread (ORT's calling thread, forming batches)";

    static final String DELIVERY = "delivery thread (decode, document records)";
    static final String NATIVE = "native threads (ORT's intra-op workers), GC, JIT";
    static final String TASKS = "Flink task threads (parse, tokenize, in-order output, serialize, sink writers)";
    static final String KAFKA_CLIENTS = "Kafka clients of the job (fetcher, producers)";
    static final String BROKER = "embedded Kafka broker (transactions, logs)";
    static final String FLINK = "Flink runtime (checkpoints, RPC, metrics)";
    static final String BENCH = "the bench (producer, output reader)";
    static final String OTHER = "other Java threads";

    private static final Pattern TASK = Pattern.compile(".*\\(\\d+/\\d+\\)#\\d+$");

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    /** CPU nanoseconds of the process, and of each live thread (by id) with its name. */
    record Sample(long processNanos, Map<Long, Long> threadNanos, Map<Long, String> names) {}

    /** CPU nanoseconds of the whole process so far. */
    long processNanos() {
        return os.getProcessCpuTime();
    }

    Sample sample() {
        Map<Long, Long> cpu = new HashMap<>();
        Map<Long, String> names = new HashMap<>();
        for (ThreadInfo t : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (t == null) {
                continue;
            }
            long ns = threads.getThreadCpuTime(t.getThreadId());
            if (ns >= 0) {
                cpu.put(t.getThreadId(), ns);
                names.put(t.getThreadId(), t.getThreadName());
            }
        }
        return new Sample(os.getProcessCpuTime(), cpu, names);
    }

    /**
     * CPU nanoseconds per group between two samples. A thread that ended in between is lost to its
     * group and counted as native (its CPU is still in the process's total), a small error for a
     * job whose threads live as long as it does.
     */
    static Map<String, Long> byGroup(Sample before, Sample after) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String g : new String[] {MODEL, NATIVE, DELIVERY, TASKS, KAFKA_CLIENTS, BROKER, FLINK, BENCH, OTHER}) {
            out.put(g, 0L);
        }
        long java = 0;
        for (Map.Entry<Long, Long> t : after.threadNanos().entrySet()) {
            long used = t.getValue() - before.threadNanos().getOrDefault(t.getKey(), 0L);
            java += used;
            out.merge(group(after.names().get(t.getKey())), used, Long::sum);
        }
        out.put(NATIVE, Math.max(0, after.processNanos() - before.processNanos() - java));
        return out;
    }

    /** The group of a thread, by the names Flink, Kafka and this project give their threads. */
    static String group(String name) {
        if (name.equals("bioner-micro-batcher")) {
            return MODEL;
        }
        if (name.equals("bioner-batch-delivery")) {
            return DELIVERY;
        }
        if (name.startsWith("Source Data Fetcher")
                || name.startsWith("kafka-producer-network-thread | producer-bioner")
                || name.startsWith("kafka-admin-client-thread | bioner")) {
            return KAFKA_CLIENTS;
        }
        if (name.startsWith("Time Trigger for")
                || name.startsWith("AsyncOperations")
                || name.startsWith("Checkpoint")) {
            return FLINK;
        }
        if (TASK.matcher(name).matches()) {
            return TASKS;
        }
        if (name.equals("main") || name.startsWith("kafka-producer-network-thread")) {
            return BENCH; // the bench produces the input and reads the output on main
        }
        if (name.startsWith("flink-")
                || name.startsWith("jobmanager-")
                || name.startsWith("mini-cluster")
                || name.startsWith("metrics-")
                || name.startsWith("BLOB")
                || name.startsWith("Flink")) {
            return FLINK;
        }
        if (name.contains("kafka")
                || name.contains("Kafka")
                || name.startsWith("broker-")
                || name.startsWith("controller-")
                || name.startsWith("quorum-")
                || name.startsWith("Txn")
                || name.startsWith("AddPartitionsToTxn")
                || name.startsWith("PersisterStateManager")
                || name.startsWith("log-")
                || name.startsWith("executor-")
                || name.startsWith("ExpirationReaper")
                || name.startsWith("group-coordinator")
                || name.startsWith("share-coordinator")
                || name.startsWith("transaction-")
                || name.startsWith("LogDirFailureHandler")
                || name.startsWith("raft")) {
            return BROKER;
        }
        return OTHER;
    }
}
