package dev.bionerstream.demo;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;

/**
 * One service (a broker, an index node) for every test class of the test JVM that registers it with
 * {@code @RegisterExtension static final SharedService<...> X = ...}: started by the first of them,
 * closed once the whole run has ended (JUnit's root store), so the integration tests pay for one start,
 * not one per class. Each test works on names of its own (topics, consumer group, transactional ids,
 * index), so none sees another's data.
 */
public final class SharedService<T extends AutoCloseable> implements BeforeAllCallback {
    private static final Namespace SHARED = Namespace.create(SharedService.class);

    /** Starts the service; may throw what starting it throws. */
    @FunctionalInterface
    public interface Starter<T> {
        T start() throws Exception;
    }

    private final String name;
    private final Starter<T> starter;
    private volatile T service;

    public SharedService(String name, Starter<T> starter) {
        this.name = name;
        this.starter = starter;
    }

    /** The JVM's broker for tests that need a plain one ({@link EmbeddedKafka}). */
    public static SharedService<EmbeddedKafka> kafka() {
        return new SharedService<>("kafka", EmbeddedKafka::start);
    }

    /** Starts the service unless a class before this one did; JUnit closes it (AutoCloseable) when the run ends. */
    @Override
    @SuppressWarnings("unchecked")
    public void beforeAll(ExtensionContext context) {
        service =
                (T) context.getRoot().getStore(SHARED).getOrComputeIfAbsent(name, key -> start(), AutoCloseable.class);
    }

    /** The service; only once the test class's callbacks ran (in a test or a {@code @BeforeAll}). */
    public T get() {
        T s = service;
        if (s == null) {
            throw new IllegalStateException("the shared " + name + " is not started: register it with"
                    + " @RegisterExtension static final, before the @BeforeAll that uses it");
        }
        return s;
    }

    private T start() {
        try {
            return starter.start();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the shared " + name + ": " + e, e);
        }
    }
}
