package dev.bionerstream.nativelib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.lang.invoke.MethodType;
import org.junit.jupiter.api.Test;

class LibraryThreadTest {
    @Test
    void aCallRunsOnItsOwnThreadWithTheLibrarysClassLoaderAndGivesItsValueBack() throws Exception {
        Thread caller = Thread.currentThread();
        Thread[] ran = new Thread[1];
        ClassLoader[] loader = new ClassLoader[1];
        String value = LibraryThread.call(String.class, () -> {
            ran[0] = Thread.currentThread();
            loader[0] = Thread.currentThread().getContextClassLoader();
            return "done";
        });
        assertThat(value).isEqualTo("done");
        assertThat(ran[0]).isNotSameAs(caller);
        assertThat(ran[0].getName()).isEqualTo(LibraryThread.NAME);
        assertThat(loader[0]).as("String's loader is the bootstrap loader").isNull();
        assertThat(LibraryThread.call(
                        LibraryThreadTest.class, () -> Thread.currentThread().getContextClassLoader()))
                .isSameAs(LibraryThreadTest.class.getClassLoader());
    }

    @Test
    void theCallsExceptionOrErrorIsThrownAsItself() {
        IOException checked = new IOException("no file");
        assertThatThrownBy(() -> LibraryThread.call(String.class, () -> {
                    throw checked;
                }))
                .isSameAs(checked);
        StackOverflowError error = new StackOverflowError("deep");
        assertThatThrownBy(() -> LibraryThread.call(String.class, () -> {
                    throw error;
                }))
                .isSameAs(error);
    }

    @Test
    void aStaticMethodIsCalledThroughAMethodHandle() throws Exception {
        assertThat(LibraryThread.callStatic(
                        Integer.class, "parseInt", MethodType.methodType(int.class, String.class), "42"))
                .isEqualTo(42);
        assertThatThrownBy(() -> LibraryThread.callStatic(
                        Integer.class, "parseInt", MethodType.methodType(int.class, String.class), "x"))
                .isInstanceOf(NumberFormatException.class);
    }

    /** A recursion goes many times deeper on the library thread than on a thread of the JVM's default stack. */
    @Test
    void theStackIsManyTimesADefaultThreads() throws Exception {
        int[] onDefault = new int[1];
        Thread plain = new Thread(() -> onDefault[0] = depth());
        plain.start();
        plain.join();
        int onLibrary = LibraryThread.call(String.class, LibraryThreadTest::depth);
        assertThat(onLibrary).isGreaterThan(4 * onDefault[0]);
    }

    /** How deep a recursion goes on this thread before its stack overflows. */
    private static int depth() {
        int[] reached = new int[1];
        try {
            recurse(reached);
        } catch (StackOverflowError expected) {
            // the deepest call is counted
        }
        return reached[0];
    }

    private static void recurse(int[] reached) {
        reached[0]++;
        recurse(reached);
    }
}
