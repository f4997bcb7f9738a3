package dev.bionerstream.engine;

import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.inference.MrcSession;
import dev.bionerstream.inference.WindowLogits;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs all windows in batches of similar length so that little padding is computed, and returns
 * the results in the original order: on the caller's thread, or with {@code runners} threads
 * (the caller's and more) taking the batches in turn, side by side on the one session. For the
 * command line, where all the input is known in advance.
 */
public final class LengthSortedBatches implements WindowRunner {
    private final MrcSession session;
    private final int batchSize;
    private final int runners;

    public LengthSortedBatches(MrcSession session, BatchSize batchSize) {
        this(session, batchSize, 1);
    }

    public LengthSortedBatches(MrcSession session, BatchSize batchSize, int runners) {
        if (runners < 1) {
            throw new IllegalArgumentException("model runners must be >= 1, got " + runners);
        }
        this.session = session;
        this.batchSize = batchSize.value();
        this.runners = runners;
    }

    @Override
    public CompletableFuture<List<WindowResult>> run(List<MrcWindow> windows) {
        try {
            return CompletableFuture.completedFuture(runNow(windows));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private List<WindowResult> runNow(List<MrcWindow> windows) {
        Integer[] order = new Integer[windows.size()];
        Arrays.setAll(order, i -> i);
        Arrays.sort(order, Comparator.comparingInt(i -> windows.get(i).length()));
        WindowResult[] out = new WindowResult[windows.size()];
        int batches = (order.length + batchSize - 1) / batchSize;
        AtomicInteger next = new AtomicInteger();
        Runnable work = () -> {
            try {
                for (int b; (b = next.getAndIncrement()) < batches; ) {
                    runBatch(windows, order, b * batchSize, Math.min(order.length, (b + 1) * batchSize), out);
                }
            } catch (RuntimeException e) {
                next.set(batches); // a failed batch stops the other runners at their next batch
                throw e;
            }
        };
        int helpers = Math.min(runners, batches) - 1;
        if (helpers <= 0) {
            work.run();
            return Arrays.asList(out);
        }
        ExecutorService pool = Executors.newFixedThreadPool(helpers, r -> {
            Thread t = new Thread(r, "bioner-batch-runner");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < helpers; i++) {
                running.add(pool.submit(work));
            }
            work.run();
            for (Future<?> f : running) {
                f.get();
            }
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the model ran", e);
        } finally {
            pool.shutdownNow();
        }
        return Arrays.asList(out);
    }

    private void runBatch(List<MrcWindow> windows, Integer[] order, int from, int to, WindowResult[] out) {
        List<MrcWindow> batch = new ArrayList<>(to - from);
        for (int k = from; k < to; k++) {
            batch.add(windows.get(order[k]));
        }
        long start = System.nanoTime();
        List<WindowLogits> logits = session.run(batch);
        long modelNanos = System.nanoTime() - start;
        for (int k = from; k < to; k++) {
            out[order[k]] = new WindowResult(logits.get(k - from), to - from, 0, modelNanos);
        }
    }
}
