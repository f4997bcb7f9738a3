package dev.bionerstream.demo;

import java.io.PrintStream;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A line on standard output at least every {@link #EVERY} while a wait lasts: what it waits for, for
 * how long so far, and what it has so far. A wait that a busy machine stretches to minutes then reads
 * in a test's log as progress, not as minutes of silence that look like a hang.
 *
 * <p>Heartbeats nest: a thread that waits for one thing inside a longer one (a step of a test, a test
 * of a class) has one line every {@link #EVERY} for all of them, for the innermost wait that has lasted
 * a while ({@link #SETTLED}), else for the outermost, naming the latest inner one: a run of short
 * waits, none long enough for a line of its own, still gets its lines. The lines come from a daemon
 * thread, so a wait inside one blocking call gets them too; closing a heartbeat ends its part.
 */
public final class Heartbeat implements AutoCloseable {
    /** How long a thread's waits go without a line. */
    public static final Duration EVERY = Duration.ofSeconds(30);
    /** How long an inner wait lasts before a line is about it rather than about the wait around it. */
    static final Duration SETTLED = Duration.ofSeconds(10);

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

    /** Each waiting thread's open heartbeats, innermost last. Guarded by itself, as the two maps below. */
    private static final Map<Thread, Deque<Heartbeat>> OPEN = new HashMap<>();
    /** When each waiting thread last had a line, or began to wait. */
    private static final Map<Thread, Long> LAST_LINE = new HashMap<>();
    /** What each waiting thread's latest heartbeat waited for: an outer one's line names it. */
    private static final Map<Thread, String> LATEST = new HashMap<>();

    private static Thread ticker;

    private final Thread owner = Thread.currentThread();
    private final String what;
    private final Supplier<String> status;
    /**
     * Standard output as the wait began: a command run in the same JVM may point System.out at a
     * buffer meanwhile (a test reading what the command printed), where the lines do not belong.
     */
    private final PrintStream out = System.out;

    private final long start = System.nanoTime();
    private volatile String soFar = "";

    private Heartbeat(String what, Supplier<String> status) {
        this.what = what;
        this.status = status;
    }

    /**
     * Starts the lines for a wait for {@code what} (e.g. "40 documents on streaming-documents"); the
     * waiting loop tells what it has so far with {@link #soFar}.
     */
    public static Heartbeat start(String what) {
        return open(new Heartbeat(what, null));
    }

    /**
     * Starts the lines for a wait inside one call; each line asks {@code status} what the wait has so
     * far, on the heartbeat's own thread (e.g. the last line a process printed).
     */
    public static Heartbeat start(String what, Supplier<String> status) {
        return open(new Heartbeat(what, status));
    }

    private static Heartbeat open(Heartbeat h) {
        synchronized (OPEN) {
            Deque<Heartbeat> open = OPEN.computeIfAbsent(h.owner, t -> new ArrayDeque<>());
            if (open.isEmpty()) {
                LAST_LINE.put(h.owner, h.start);
            } else {
                LATEST.put(h.owner, h.what);
            }
            open.addLast(h);
            if (ticker == null) {
                ticker = new Thread(Heartbeat::tick, "heartbeat");
                ticker.setDaemon(true);
                ticker.start();
            }
        }
        return h;
    }

    /** What the wait has so far, shown in its next line (e.g. "12 documents, none new for 8 s"). */
    public void soFar(String status) {
        soFar = status;
    }

    private static void tick() {
        while (true) {
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                return;
            }
            List<Heartbeat> due = new ArrayList<>();
            Map<Heartbeat, String> latest = new HashMap<>();
            long now = System.nanoTime();
            synchronized (OPEN) {
                OPEN.forEach((thread, open) -> {
                    if (now - LAST_LINE.get(thread) >= EVERY.toNanos()) {
                        LAST_LINE.put(thread, now);
                        Heartbeat line = open.getFirst();
                        for (Heartbeat h : open) {
                            if (now - h.start >= SETTLED.toNanos()) {
                                line = h;
                            }
                        }
                        due.add(line);
                        latest.put(line, LATEST.get(thread));
                    }
                });
            }
            // outside the lock: a status may read a file or ask a process
            due.forEach(h -> h.print(latest.get(h)));
        }
    }

    private void print(String latestWait) {
        String now;
        try {
            now = status != null ? status.get() : soFar;
        } catch (RuntimeException e) {
            now = "(unknown: " + e + ")";
        }
        String more = now != null && !now.isEmpty()
                ? "; so far: " + now
                : latestWait != null && !latestWait.equals(what) ? "; its latest wait: " + latestWait : "";
        out.printf(
                "%s still waiting (%d s) for %s%s%n",
                LocalTime.now().format(CLOCK),
                Duration.ofNanos(System.nanoTime() - start).toSeconds(),
                what,
                more);
    }

    @Override
    public void close() {
        synchronized (OPEN) {
            Deque<Heartbeat> open = OPEN.get(owner);
            if (open != null && open.remove(this) && open.isEmpty()) {
                OPEN.remove(owner);
                LAST_LINE.remove(owner);
                LATEST.remove(owner);
            }
        }
    }
}
