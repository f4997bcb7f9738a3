package dev.bionerstream.nativelib;

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
 * The thread on which this code calls into a native library of Flink's lib/ (ONNX Runtime, DJL's
 * tokenizer) where the call needs one: a fresh thread for each call, with a clean context and a large
 * stack, whose value the caller gets back, or whose exception it gets thrown.
 *
 * <p><b>Clean context.</b> Both libraries start threads that outlive the job when first used: ONNX
 * Runtime registers a shutdown-hook thread with its environment, DJL's tokenizer probes for CUDA
 * through JNA, which starts JNA's cleaner thread (alive as long as the CUDA runtime it loaded, that is
 * forever). A new thread keeps its creator's context class loader and access-control context, which
 * holds the protection domain, and so the class loader, of every class on the creating stack. Created
 * under a Flink task, those threads kept the first job's class loader with all its classes in every
 * TaskManager it ran on (ClusterITCase found them with heap dumps: {@code Cleaner$CleanerThread} and
 * {@code OrtEnvironment$OrtEnvCloser}, each through {@code inheritedAccessControlContext}). So a
 * common-pool thread (created by the JDK with an empty context and the system class loader) starts
 * the call's thread, with the library's class loader as its context class loader, through JDK proxies
 * of method handles; {@link #callStatic} makes the call itself such a proxy too, so that no class of
 * the job is on either stack.
 *
 * <p><b>Large stack.</b> Loading ONNX Runtime's native library (1.29, Linux x86-64) recurses deep in
 * its static initialisation. Measured with a throwaway harness, each size in a fresh JDK 17 (AMD EPYC,
 * 3 runs a size): the load kills the JVM with SIGSEGV, no hs_err file, on a thread stack of 5,504 KiB
 * or less, and succeeds from 5,632 KiB; the 1 MiB of a JVM main or Flink task thread is far too little.
 * Nothing after the load needs much: creating the default bundle's session (float and int8) and
 * running it on 8 x 128 pieces, or loading the tokenizer and encoding a sentence, pass on 256 KiB.
 * {@link #STACK_BYTES} is 16 MiB, three times the load's need, for another ONNX Runtime version and a
 * provider library loaded with a session (CUDA); it is address space, used only as deep as a call goes.
 */
public final class LibraryThread {
    private LibraryThread() {}

    /** Stack of the thread each call runs on (see the class comment for the measurement). */
    static final long STACK_BYTES = 16L << 20;

    static final String NAME = "bioner-library";

    /**
     * Calls the public static method {@code name} of {@code owner} with {@code args} on a library
     * thread whose stack holds no class of this job, and returns what it returns (throws what it throws).
     */
    public static Object callStatic(Class<?> owner, String name, MethodType type, Object... args) throws Exception {
        MethodHandle target =
                MethodHandles.insertArguments(MethodHandles.publicLookup().findStatic(owner, name, type), 0, args);
        Callable<?> call = withContextClassLoader(
                owner.getClassLoader(), () -> MethodHandleProxies.asInterfaceInstance(Callable.class, target));
        return call(owner, call);
    }

    /**
     * Runs {@code call} on a new library thread, with {@code library}'s class loader as its context
     * class loader, waits for it and returns its value, or throws the exception or error it threw.
     * The caller's interruption ends the wait (not the call) with {@link InterruptedException}.
     */
    public static <T> T call(Class<?> library, Callable<T> call) throws Exception {
        ClassLoader loader = library.getClassLoader();
        FutureTask<T> task = new FutureTask<>(call);
        // Thread t = new Thread(null, task, NAME, STACK_BYTES); t.setContextClassLoader(loader); t.start();
        // run on a common-pool thread and made of method handles only, so that no class of the job is on
        // the stack that creates the thread.
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        MethodHandle newThread = MethodHandles.insertArguments(
                lookup.findConstructor(
                        Thread.class,
                        MethodType.methodType(void.class, ThreadGroup.class, Runnable.class, String.class, long.class)),
                0,
                null,
                task,
                NAME,
                STACK_BYTES);
        MethodHandle setLoader = MethodHandles.insertArguments(
                lookup.findVirtual(
                        Thread.class, "setContextClassLoader", MethodType.methodType(void.class, ClassLoader.class)),
                1,
                loader);
        MethodHandle start = lookup.findVirtual(Thread.class, "start", MethodType.methodType(void.class));
        MethodHandle startNewThread =
                MethodHandles.filterReturnValue(newThread, MethodHandles.foldArguments(start, setLoader));
        Runnable starter = withContextClassLoader(
                loader, () -> MethodHandleProxies.asInterfaceInstance(Runnable.class, startNewThread));
        ForkJoinPool.commonPool().execute(starter);
        try {
            return task.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            if (e.getCause() instanceof Error cause) {
                throw cause;
            }
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw e;
        }
    }

    /**
     * Runs {@code action} with {@code loader} as the thread's context class loader: a JDK proxy of a
     * {@code java.base} interface is defined in it.
     */
    private static <T> T withContextClassLoader(ClassLoader loader, Supplier<T> action) {
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
