package dev.bionerstream.features;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandleProxies;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.FutureTask;
import java.util.function.Supplier;

/**
 * First calls into a native library of Flink's lib/ (ONNX Runtime, DJL's tokenizer), made so that
 * nothing the library keeps for the JVM's lifetime holds the job's user class loader.
 *
 * <p>Both libraries start threads that outlive the job when first used: ONNX Runtime registers a
 * shutdown-hook thread with its environment, DJL's tokenizer probes for CUDA through JNA, which
 * starts JNA's cleaner thread (alive as long as the CUDA runtime it loaded, that is forever). A new
 * thread keeps its creator's context class loader and access-control context, which holds the
 * protection domain, and so the class loader, of every class on the creating stack. Created under a
 * Flink task, those threads kept the first job's class loader with all its classes in every
 * TaskManager it ran on (ClusterITCase found them with heap dumps: {@code Cleaner$CleanerThread} and
 * {@code OrtEnvironment$OrtEnvCloser}, each through {@code inheritedAccessControlContext}). So the
 * first call runs on a common-pool thread, which the JDK creates with an empty context and the
 * system class loader, through a JDK proxy of a method handle: no class of the job is on that stack.
 */
public final class LibraryContext {
    private LibraryContext() {}

    /**
     * Calls the public static method {@code name} of {@code owner} with {@code args} on a stack that
     * holds no class of this job, and returns what it returns (its exception, if it throws).
     */
    public static Object callStatic(Class<?> owner, String name, MethodType type, Object... args) throws Exception {
        MethodHandle target =
                MethodHandles.insertArguments(MethodHandles.publicLookup().findStatic(owner, name, type), 0, args);
        ClassLoader library = owner.getClassLoader();
        Callable<?> call =
                withContextClassLoader(library, () -> MethodHandleProxies.asInterfaceInstance(Callable.class, target));
        // execute and a FutureTask, not submit(...).get(): a ForkJoinTask joined from outside the pool
        // may run on the joining thread itself, this job's task thread.
        FutureTask<?> task = new FutureTask<>(call);
        ForkJoinPool.commonPool().execute(task);
        try {
            return task.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    /**
     * Runs {@code action} with {@code loader} as the thread's context class loader (DJL finds its
     * native library's properties through it; the proxy class above is defined in it).
     */
    static <T> T withContextClassLoader(ClassLoader loader, Supplier<T> action) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            return action.get();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }
}
