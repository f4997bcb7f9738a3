package dev.bionerstream.cli;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Ctrl-C (SIGINT) and SIGTERM as a request to stop, handled before the JVM's shutdown hooks run: a
 * command closes what it started in order while everything still works, which the hooks, all run at
 * once, cannot (Flink's, Kafka's and OpenSearch's would close their parts under the others). The
 * first signal runs {@code onStop} on the signal's thread; a second exits at once, with the hooks.
 */
final class StopSignals implements AutoCloseable {
    /** What a shell reports for a command ended by Ctrl-C (128 + SIGINT's number). */
    static final int EXIT_CODE = 130;

    private static final List<String> SIGNALS = List.of("INT", "TERM");

    /** Each signal with the handler it had before. */
    private final List<Object[]> previous = new ArrayList<>();

    private Method handle;

    private StopSignals() {}

    /**
     * Installs the handlers until {@link #close()}. A signal the process started with ignored (a
     * shell's background job ignores SIGINT) stays ignored: the JVM refuses to handle it.
     */
    static StopSignals install(Runnable onStop) {
        StopSignals installed = new StopSignals();
        AtomicInteger received = new AtomicInteger();
        // sun.misc through reflection: javac warns of it as internal API at every build, and
        // scripts/build shows users every warning.
        try {
            Class<?> signalClass = Class.forName("sun.misc.Signal");
            Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
            Method handle = signalClass.getMethod("handle", signalClass, handlerClass);
            Object handler = Proxy.newProxyInstance(
                    StopSignals.class.getClassLoader(), new Class<?>[] {handlerClass}, (proxy, method, args) -> {
                        switch (method.getName()) {
                            case "handle" -> {
                                if (received.getAndIncrement() == 0) {
                                    onStop.run();
                                } else {
                                    System.exit(EXIT_CODE);
                                }
                                return null;
                            }
                            case "hashCode" -> {
                                return System.identityHashCode(proxy);
                            }
                            case "equals" -> {
                                return proxy == args[0];
                            }
                            default -> {
                                return "StopSignals";
                            }
                        }
                    });
            for (String name : SIGNALS) {
                Object signal = signalClass.getConstructor(String.class).newInstance(name);
                try {
                    installed.previous.add(new Object[] {signal, handle.invoke(null, signal, handler)});
                } catch (ReflectiveOperationException e) {
                    // Ignored from the start or taken by the JVM (-Xrs): the JVM's default stays.
                }
            }
            installed.handle = handle;
        } catch (ReflectiveOperationException | RuntimeException e) {
            // A JVM without sun.misc.Signal: the signals end the process as they would have.
        }
        return installed;
    }

    @Override
    public void close() {
        for (Object[] p : previous) {
            try {
                handle.invoke(null, p[0], p[1]);
            } catch (ReflectiveOperationException | RuntimeException e) {
                // The process is ending anyway.
            }
        }
        previous.clear();
    }
}
