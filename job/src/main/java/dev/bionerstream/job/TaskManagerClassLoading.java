package dev.bionerstream.job;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.avro.Schema;

/**
 * Refuses to run on a TaskManager that loads Avro or Jackson parent-first (from {@code lib/}), as
 * only a session cluster's JobManager should: their JVM-wide caches (Avro's schema and class caches,
 * Jackson's type cache) then hold each finished job's class loader, one more per submission
 * (measured on a real cluster: 1, 2, 3, 4, 5 user class loaders and 120 MB of Metaspace after five).
 * Where the job's own classes and these libraries come from one loader (a MiniCluster, the demo, a
 * TaskManager that loads them child-first from the job jar) there is nothing to refuse.
 */
final class TaskManagerClassLoading {
    static final String FIX = "Give the TaskManagers 'classloader.parent-first-patterns.additional: "
            + "ai.onnxruntime.;ai.djl.' and only the JobManager 'org.apache.avro.;com.fasterxml.jackson.' as well; "
            + "on one host, keep the TaskManagers' line in config.yaml and start the JobManager with "
            + "./bin/jobmanager.sh start -D classloader.parent-first-patterns.additional="
            + "\"ai.onnxruntime.;ai.djl.;org.apache.avro.;com.fasterxml.jackson.\" "
            + "(docs/deployment-flink-cluster.md, Session mode).";

    private TaskManagerClassLoading() {}

    /** Throws when Avro or Jackson comes from a parent of the loader of {@code jobClass}. */
    static void requireLibrariesFromTheJobJar(Class<?> jobClass) {
        check(jobClass.getClassLoader(), Schema.class, ObjectMapper.class);
    }

    static void check(ClassLoader job, Class<?>... libraries) {
        for (Class<?> library : libraries) {
            ClassLoader loader = library.getClassLoader();
            if (loader != job && isAncestor(loader, job)) {
                throw new IllegalStateException("This TaskManager loads " + library.getPackageName()
                        + " parent-first (from lib/, by classloader.parent-first-patterns.additional): every job it "
                        + "runs would then stay in its Metaspace after it ends. " + FIX);
            }
        }
    }

    private static boolean isAncestor(ClassLoader candidate, ClassLoader of) {
        for (ClassLoader l = of == null ? null : of.getParent(); l != null; l = l.getParent()) {
            if (l == candidate) {
                return true;
            }
        }
        return false;
    }
}
