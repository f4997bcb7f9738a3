package dev.bionerstream.bench;

import java.util.Collection;

/**
 * Percentiles of latencies in milliseconds, by the nearest-rank method: p99 of 200 values is the
 * 198th smallest, a value that was measured, never an interpolation.
 */
record Latencies(int count, long p50, long p95, long p99, long max) {
    static Latencies of(Collection<Long> millis) {
        long[] sorted = millis.stream().mapToLong(Long::longValue).sorted().toArray();
        if (sorted.length == 0) {
            return new Latencies(0, 0, 0, 0, 0);
        }
        return new Latencies(
                sorted.length, rank(sorted, 50), rank(sorted, 95), rank(sorted, 99), sorted[sorted.length - 1]);
    }

    private static long rank(long[] sorted, int percent) {
        int rank = (int) Math.ceil(percent / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    /** "p50 1.23 s, p95 ..., max ... (n of expected)". */
    String line(int expected) {
        return String.format(
                "p50 %5.2f s, p95 %5.2f s, p99 %5.2f s, max %5.2f s (%d of %d)",
                p50 / 1e3, p95 / 1e3, p99 / 1e3, max / 1e3, count, expected);
    }
}
