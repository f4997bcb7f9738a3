package dev.bionerstream.inference;

import dev.bionerstream.features.MrcWindow;
import java.util.List;

/** Runs the MRC model on a batch of windows. Implementations are thread-safe. */
public interface MrcSession extends AutoCloseable {
    /** Logits of every window's context positions, in the order of {@code batch}. */
    List<WindowLogits> run(List<MrcWindow> batch);

    /** Which execution provider runs the model, e.g. "CPU" or "CUDA:0". */
    String provider();

    /** The device the model runs on: the CPU also where CUDA was asked for and could not start. */
    Device device();

    @Override
    void close();
}
