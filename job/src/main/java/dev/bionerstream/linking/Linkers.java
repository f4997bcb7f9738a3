package dev.bionerstream.linking;

import java.util.HashMap;
import java.util.Map;

/**
 * One linker per JVM and settings, shared by every slot of a TaskManager as the model session is:
 * its vocabularies are immutable, so sharing needs no lease, and loading them once keeps a
 * TaskManager's heap to one copy.
 */
public final class Linkers {
    private static final Map<LinkSettings, EntityLinker> JVM = new HashMap<>();

    private Linkers() {}

    public static EntityLinker shared(LinkSettings settings) {
        synchronized (JVM) {
            return JVM.computeIfAbsent(settings, EntityLinker::open);
        }
    }
}
