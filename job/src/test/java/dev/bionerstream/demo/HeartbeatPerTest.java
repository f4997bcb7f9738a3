package dev.bionerstream.demo;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;

/**
 * A {@link Heartbeat} around every test class and test, registered for all of them
 * (META-INF/services, junit-platform.properties): a test that goes 30 s without a line of its own
 * waits (a broker or a cluster starting, a run of short steps, a long computation) gets one naming it
 * and its last wait, so no stretch of a test's log is silent for minutes.
 */
public final class HeartbeatPerTest
        implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
    private static final Namespace HEARTBEATS = Namespace.create(HeartbeatPerTest.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        open(context, context.getRequiredTestClass().getSimpleName() + " to end");
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        open(context, context.getRequiredTestClass().getSimpleName() + " " + context.getDisplayName() + " to end");
    }

    @Override
    public void afterEach(ExtensionContext context) {
        close(context);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        close(context);
    }

    private static void open(ExtensionContext context, String what) {
        context.getStore(HEARTBEATS).put(context.getUniqueId(), Heartbeat.start(what));
    }

    private static void close(ExtensionContext context) {
        Heartbeat h = context.getStore(HEARTBEATS).remove(context.getUniqueId(), Heartbeat.class);
        if (h != null) {
            h.close();
        }
    }
}
