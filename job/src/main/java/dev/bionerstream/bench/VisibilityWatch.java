package dev.bionerstream.bench;

import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When each awaited document first became visible to one kind of reader (a Kafka consumer, a
 * search), in epoch milliseconds: a thread of its own asks the reader again and again and stamps
 * what is new the moment it is seen.
 */
abstract class VisibilityWatch implements AutoCloseable {
    final String name;
    private final Set<String> awaited = ConcurrentHashMap.newKeySet();
    private final Map<String, Long> firstSeen = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean stopped;
    private volatile Exception lastError;

    VisibilityWatch(String name) {
        this.name = name;
        this.thread = new Thread(this::watch, "bench-visibility-" + name);
        thread.setDaemon(true);
    }

    /**
     * Documents of the awaited ones that are visible now, of {@code pending} (those not seen yet);
     * may return others too, and may block a little while it waits for news.
     */
    protected abstract Collection<String> visibleNow(Set<String> pending) throws Exception;

    void start() {
        thread.start();
    }

    /** Watch for document {@code id}; call it before the document's record is produced. */
    void await(String id) {
        awaited.add(id);
    }

    Map<String, Long> firstSeen() {
        return firstSeen;
    }

    /** Why the reader failed last, if it did (the watch goes on). */
    Exception lastError() {
        return lastError;
    }

    private void watch() {
        while (!stopped) {
            Set<String> pending = new HashSet<>(awaited);
            pending.removeAll(firstSeen.keySet());
            try {
                Collection<String> visible = visibleNow(pending);
                long now = System.currentTimeMillis();
                for (String id : visible) {
                    if (awaited.contains(id)) {
                        firstSeen.putIfAbsent(id, now);
                    }
                }
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                lastError = e;
            }
        }
    }

    @Override
    public void close() throws Exception {
        stopped = true;
        thread.interrupt();
        thread.join(10_000);
    }
}
