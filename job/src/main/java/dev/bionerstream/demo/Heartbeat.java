package dev.bionerstream.demo;

import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.function.Supplier;

/**
 * A line on standard output every {@link #EVERY} while a wait lasts: what it waits for, for how long
 * so far, and what it has so far. A wait that a busy machine stretches to minutes then reads in a
 * test's log as progress, not as minutes of silence that look like a hang. The lines come from a
 * daemon thread of its own, so a wait inside one blocking call gets them too; closing it stops them.
 */
public final class Heartbeat implements AutoCloseable {
    /** How often a line is printed, and how long a wait lasts before its first one. */
    public static final Duration EVERY = Duration.ofSeconds(30);

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

    private final String what;
    private final Supplier<String> status;
    private final long start = System.nanoTime();
    private final Thread thread;
    private volatile String soFar = "";

    private Heartbeat(String what, Supplier<String> status) {
        this.what = what;
        this.status = status == null ? () -> soFar : status;
        this.thread = new Thread(this::beat, "heartbeat");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Starts the lines for a wait for {@code what} (e.g. "40 documents on streaming-documents"); the
     * waiting loop tells what it has so far with {@link #soFar}.
     */
    public static Heartbeat start(String what) {
        return new Heartbeat(what, null);
    }

    /**
     * Starts the lines for a wait inside one call; each line asks {@code status} what the wait has so
     * far, on the heartbeat's own thread (e.g. the last line a process printed).
     */
    public static Heartbeat start(String what, Supplier<String> status) {
        return new Heartbeat(what, status);
    }

    /** What the wait has so far, shown in the next line (e.g. "12 documents, none new for 8 s"). */
    public void soFar(String status) {
        soFar = status;
    }

    private void beat() {
        try {
            while (true) {
                Thread.sleep(EVERY.toMillis());
                long seconds = Duration.ofNanos(System.nanoTime() - start).toSeconds();
                String now;
                try {
                    now = status.get();
                } catch (RuntimeException e) {
                    now = "(unknown: " + e + ")";
                }
                System.out.printf(
                        "%s still waiting (%d s) for %s%s%n",
                        LocalTime.now().format(CLOCK),
                        seconds,
                        what,
                        now == null || now.isEmpty() ? "" : "; so far: " + now);
            }
        } catch (InterruptedException e) {
            // closed
        }
    }

    @Override
    public void close() {
        thread.interrupt();
    }
}
