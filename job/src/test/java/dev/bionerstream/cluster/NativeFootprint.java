package dev.bionerstream.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What a TaskManager process holds of the job's native code: how many copies of each native library
 * are mapped ({@code /proc/<pid>/maps}, distinct files), how many Flink user class loaders are alive
 * after a full GC ({@code jcmd <pid> VM.classloaders}), and its resident memory.
 *
 * @param onnxRuntimeCopies distinct {@code libonnxruntime.so} files mapped
 * @param tokenizersCopies distinct {@code libtokenizers.so} files mapped
 * @param userClassLoaders Flink user-code class loaders alive after {@code GC.run}, -1 if jcmd failed
 * @param rssKb VmRSS in kB
 * @param heapKb the Java heap's committed size in kB (part of the RSS), -1 if jcmd failed
 * @param metaspaceKb Metaspace committed in kB, -1 if jcmd failed
 * @param metaspaceUsedKb Metaspace used in kB (what class loaders alive hold), -1 if jcmd failed
 */
record NativeFootprint(
        long onnxRuntimeCopies,
        long tokenizersCopies,
        int userClassLoaders,
        long rssKb,
        long heapKb,
        long metaspaceKb,
        long metaspaceUsedKb) {
    /** Measures the process; the jcmd outputs (class loaders, threads) go to {@code report}{@code -*.txt}. */
    static NativeFootprint of(long pid, Path report) throws IOException, InterruptedException {
        // Twice: a class loader's last references may wait for finalization or a cleaner after the first.
        jcmd(pid, "GC.run");
        Thread.sleep(1000);
        jcmd(pid, "GC.run");
        String loaders = jcmd(pid, "VM.classloaders");
        String threads = jcmd(pid, "Thread.print");
        Files.writeString(Path.of(report + "-classloaders.txt"), String.valueOf(loaders));
        Files.writeString(Path.of(report + "-threads.txt"), String.valueOf(threads));
        String heap = String.valueOf(jcmd(pid, "GC.heap_info"));
        Files.writeString(Path.of(report + "-heap.txt"), heap);
        Files.writeString(
                Path.of(report + "-native-memory.txt"), String.valueOf(jcmd(pid, "VM.native_memory summary")));
        List<String> maps = Files.readAllLines(Path.of("/proc/" + pid + "/maps"));
        int userLoaders = loaders == null
                ? -1
                : loaders.lines()
                        .filter(l -> l.contains("ChildFirstClassLoader") || l.contains("$ParentFirstClassLoader"))
                        .mapToInt(NativeFootprint::loadersOnLine)
                        .sum();
        if (userLoaders > 1) {
            // Which reference keeps the older loader alive: the heap dump's path to a GC root says.
            jcmd(pid, "GC.heap_dump " + report + "-heap.hprof");
        }
        return new NativeFootprint(
                copies(maps, "libonnxruntime.so"),
                copies(maps, "libtokenizers.so"),
                userLoaders,
                rss(pid),
                kb(heap, "heap\\s+total (\\d+)K"),
                kb(heap, "Metaspace\\s+used \\d+K, committed (\\d+)K"),
                kb(heap, "Metaspace\\s+used (\\d+)K"));
    }

    /** A line of {@code VM.classloaders} names one loader, or {@code N + 1} with "(+ N more)". */
    private static int loadersOnLine(String line) {
        java.util.regex.Matcher more =
                java.util.regex.Pattern.compile("\\(\\+ (\\d+) more\\)").matcher(line);
        return more.find() ? 1 + Integer.parseInt(more.group(1)) : 1;
    }

    private static long copies(List<String> maps, String library) {
        return maps.stream()
                .map(l -> l.replaceAll("^(\\S+\\s+){5}", "").strip())
                .filter(f ->
                        Path.of(f.isEmpty() ? "-" : f).getFileName().toString().contains(library))
                .distinct()
                .count();
    }

    /** The kB {@code pattern} captures in jcmd's GC.heap_info ("garbage-first heap   total 524288K, ..."). */
    private static long kb(String heapInfo, String pattern) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(pattern).matcher(heapInfo);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    private static long rss(long pid) throws IOException {
        return Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream()
                .filter(l -> l.startsWith("VmRSS:"))
                .mapToLong(l -> Long.parseLong(l.replaceAll("\\D", "")))
                .findFirst()
                .orElse(-1);
    }

    /** The command's output, or null when jcmd is missing or fails. */
    private static String jcmd(long pid, String command) throws IOException, InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        if (!Files.isExecutable(jcmd)) {
            return null;
        }
        List<String> args = new java.util.ArrayList<>(List.of(jcmd.toString(), String.valueOf(pid)));
        args.addAll(List.of(command.split(" ")));
        Process p = new ProcessBuilder(args).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            return null;
        }
        return out;
    }

    @Override
    public String toString() {
        return String.format(
                "libonnxruntime.so x%d, libtokenizers.so x%d, user class loaders %d, RSS %d MB (heap committed %d MB,"
                        + " metaspace %d MB committed, %d MB used)",
                onnxRuntimeCopies,
                tokenizersCopies,
                userClassLoaders,
                rssKb / 1024,
                heapKb / 1024,
                metaspaceKb / 1024,
                metaspaceUsedKb / 1024);
    }
}
