package dev.bionerstream.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * CPU time of this process by group of threads, for a benchmark that runs the whole job in one JVM
 * (local cluster, embedded broker): which part of the job competes with the model for the cores.
 * Threads are grouped by name. The garbage collector's and the JIT compiler's threads are not Java
 * threads: on Linux they are read from /proc by the names the JVM gives them. What no thread seen
 * accounts for (ONNX Runtime's own worker threads) is the process's CPU time minus theirs.
 */
final class ThreadCpu {
    /** Group names, in the order they are printed. */
    static final String MODEL = "model threads (ORT's calling threads, forming batches)";

    static final String DELIVERY = "delivery thread (decode, document records)";
    static final String NATIVE = "native threads (ORT's intra-op workers; GC and JIT where /proc is unreadable)";
    static final String GC = "garbage collector (GC, G1 and VM threads)";
    static final String JIT = "JIT compiler (C1, C2 threads)";
    static final String TASKS = "Flink task threads (parse, tokenize, in-order output, serialize, sink writers)";
    static final String KAFKA_CLIENTS = "Kafka clients of the job (fetcher, producers)";
    static final String BROKER = "embedded Kafka broker (transactions, logs)";
    static final String FLINK = "Flink runtime (checkpoints, RPC, metrics)";
    static final String BENCH = "the bench (producer, output reader)";
    static final String OTHER = "other Java threads";

    private static final Pattern TASK = Pattern.compile(".*\\(\\d+/\\d+\\)#\\d+$");
    private static final Path PROC_TASKS = Path.of("/proc/self/task");
    private static final long NANOS_PER_TICK = 10_000_000; // /proc counts in USER_HZ, 100 in Linux's ABI

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    /**
     * CPU nanoseconds of the process, and of each live thread with its name: Java threads by their
     * id, the JVM's GC and JIT threads by minus their Linux thread id.
     */
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
        addVmThreads(cpu, names);
        return new Sample(os.getProcessCpuTime(), cpu, names);
    }

    private static void addVmThreads(Map<Long, Long> cpu, Map<Long, String> names) {
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(PROC_TASKS)) {
            for (Path task : tasks) {
                try {
                    String name = Files.readString(task.resolve("comm")).strip();
                    if (vmGroup(name) != null) {
                        long key = -Long.parseLong(task.getFileName().toString());
                        cpu.put(key, ticks(Files.readString(task.resolve("stat"))) * NANOS_PER_TICK);
                        names.put(key, name);
                    }
                } catch (IOException | RuntimeException e) {
                    // the thread ended between listing and reading: its CPU stays in the native group
                }
            }
        } catch (IOException e) {
            // no /proc (not Linux): GC and JIT stay in the native group, as its name says
        }
    }

    /** User plus system clock ticks from a /proc/PID/task/TID/stat line (its fields 14 and 15). */
    static long ticks(String stat) {
        String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" "); // the name may hold spaces
        return Long.parseLong(after[11]) + Long.parseLong(after[12]);
    }

    /** GC or JIT for the Linux name of one of the JVM's own threads, else null. */
    static String vmGroup(String name) {
        if (name.startsWith("GC Thread") || name.startsWith("G1 ") || name.equals("VM Thread")) {
            return GC;
        }
        if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
            return JIT;
        }
        return null;
    }

    /**
     * CPU nanoseconds per group between two samples. A thread that ended in between is lost to its
     * group and counted as native (its CPU is still in the process's total), a small error for a
     * job whose threads live as long as it does.
     */
    static Map<String, Long> byGroup(Sample before, Sample after) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String g :
                new String[] {MODEL, NATIVE, GC, JIT, DELIVERY, TASKS, KAFKA_CLIENTS, BROKER, FLINK, BENCH, OTHER}) {
            out.put(g, 0L);
        }
        long seen = 0;
        for (Map.Entry<Long, Long> t : after.threadNanos().entrySet()) {
            long used = t.getValue() - before.threadNanos().getOrDefault(t.getKey(), 0L);
            seen += used;
            out.merge(group(after.names().get(t.getKey())), used, Long::sum);
        }
        out.put(NATIVE, Math.max(0, after.processNanos() - before.processNanos() - seen));
        return out;
    }

    /** The group of a thread, by the names the JVM, Flink, Kafka and this project give their threads. */
    static String group(String name) {
        String vm = vmGroup(name);
        if (vm != null) {
            return vm;
        }
        if (name.startsWith("bioner-micro-batcher")) {
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
