package dev.bionerstream.demo;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.ResourceLocksProvider;

/**
 * An integration test that mostly waits, on little CPU (an outage it times, a node it kills and starts
 * again, Maven or a script it runs, a cluster of its own JVMs): it runs beside the other test classes,
 * which run one after another because the model tests take both cores, instead of adding its waits
 * to theirs.
 * job/pom.xml's failsafe configuration turns JUnit's parallel execution on for this; a test that
 * shares a service does so by names of its own ({@link SharedService}), and the JVM's shared models
 * are told apart by their session factory too (a stand-in model is not served to a job beside it).
 * Their test methods still run one at a time, in their order: a class runs beside the others, not its
 * methods beside each other (two that index the same documents would see each other's).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(providers = RunsBesideOthers.ItsOwnClass.class)
public @interface RunsBesideOthers {
    /** A lock of the test class's own, which each of its methods holds: they run one at a time. */
    final class ItsOwnClass implements ResourceLocksProvider {
        @Override
        public Set<Lock> provideForMethod(
                List<Class<?>> enclosingInstanceTypes, Class<?> testClass, Method testMethod) {
            return Set.of(new Lock(testClass.getName()));
        }
    }
}
