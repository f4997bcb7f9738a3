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
 * first call runs on a thread with a large stack that a common-pool thread (created by the JDK with
 * an empty context and the system class loader) starts, both through JDK proxies of method handles:
 * no class of the job is on either stack.
 */
public final class LibraryContext {
    private LibraryContext() {}

    /**
     * Stack of the thread that makes the first call: ONNX Runtime's first load crashes the JVM with
     * SIGSEGV on a default 1 MB thread stack (it succeeds on 4 MB).
     */
    static final long STACK_BYTES = 16L << 20;

    /**
     * Calls the public static method {@code name} of {@code owner} with {@code args} on a stack that
     * holds no class of this job, and returns what it returns (its exception, if it throws).
     */
    public static Object callStatic(Class<?> owner, String name, MethodType type, Object... args) throws Exception {
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        MethodHandle target = MethodHandles.insertArguments(lookup.findStatic(owner, name, type), 0, args);
        FutureTask<?> call = new FutureTask<>(withContextClassLoader(
                owner.getClassLoader(), () -> MethodHandleProxies.asInterfaceInstance(Callable.class, target)));
        // new Thread(null, call, name, STACK_BYTES).start(), itself run on a common-pool thread and made
        // of method handles only, so that no class of the job is on the stack that creates the thread.
        MethodHandle newThread = MethodHandles.insertArguments(
                lookup.findConstructor(
                        Thread.class,
                        MethodType.methodType(void.class, ThreadGroup.class, Runnable.class, String.class, long.class)),
                0,
                null,
                call,
                "bioner-library-init",
                STACK_BYTES);
        MethodHandle startNewThread = MethodHandles.filterReturnValue(
                newThread, lookup.findVirtual(Thread.class, "start", MethodType.methodType(void.class)));
        Runnable starter = withContextClassLoader(
                owner.getClassLoader(), () -> MethodHandleProxies.asInterfaceInstance(Runnable.class, startNewThread));
        ForkJoinPool.commonPool().execute(starter);
        try {
            return call.get();
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
