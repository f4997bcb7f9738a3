package dev.bionerstream.batching;

import dev.bionerstream.features.MrcWindow;

/** A window of a {@link BatchRequest} on its way to the model; {@code index} is its place in the request. */
record PendingWindow(BatchRequest request, int index, MrcWindow window) {}
