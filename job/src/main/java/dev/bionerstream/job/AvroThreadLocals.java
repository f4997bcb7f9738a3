package dev.bionerstream.job;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.BinaryData;

/**
 * Empties the current thread's values of Avro's thread-locals. On a session cluster's JobManager the
 * job's {@code main()} runs on a pooled thread that outlives it; building the job parses the Avro
 * records' schemas there, and Avro's {@code Schema} leaves a {@code NameValidator} of the job's class
 * loader in a thread-local of that thread: each submission's class loader, and all its classes,
 * stayed in the JobManager's Metaspace (about 15-20 MB a submission, {@code OutOfMemoryError:
 * Metaspace} after about a dozen at docker-compose's 1600m).
 */
final class AvroThreadLocals {
    private static final List<Class<?>> HOLDERS = List.of(Schema.class, GenericDatumReader.class, BinaryData.class);

    private AvroThreadLocals() {}

    static void clearCurrentThread() {
        for (Class<?> holder : HOLDERS) {
            for (Field f : holder.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) && ThreadLocal.class.isAssignableFrom(f.getType())) {
                    try {
                        f.setAccessible(true);
                        ((ThreadLocal<?>) f.get(null)).remove();
                    } catch (ReflectiveOperationException | RuntimeException e) {
                        throw new IllegalStateException("cannot clear " + holder.getName() + "." + f.getName(), e);
                    }
                }
            }
        }
    }
}
