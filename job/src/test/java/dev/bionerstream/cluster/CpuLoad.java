package dev.bionerstream.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/** Threads that keep cores busy, as another heavy process on the machine would, until closed. */
final class CpuLoad implements AutoCloseable {
    private final AtomicBoolean stop = new AtomicBoolean();
    private final List<Thread> threads = new ArrayList<>();

    static CpuLoad start(int threads) {
        CpuLoad load = new CpuLoad();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(load::spin, "cpu-load-" + i);
            t.setDaemon(true);
            t.start();
            load.threads.add(t);
        }
        return load;
    }

    private void spin() {
        long x = 1;
        while (!stop.get()) {
            for (int i = 0; i < 1_000_000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
        }
        if (x == 42) { // keeps the loop from being optimised away
            System.out.print("");
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        for (Thread t : threads) {
            t.join();
        }
    }
}
