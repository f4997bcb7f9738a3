package dev.bionerstream.serving;

import dev.bionerstream.engine.Entity;
import dev.bionerstream.engine.Extraction;
import dev.bionerstream.engine.LengthSortedBatches;
import dev.bionerstream.engine.MrcEngine;
import dev.bionerstream.engine.Segmentation;
import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.inference.MrcSession;
import java.util.List;
import java.util.concurrent.CompletionException;

/** The engine and its model session in this process, windows run in length-sorted batches on the caller's thread. */
public final class LocalModel implements AutoCloseable {
    public final ServingConfig config;
    public final MrcEngine engine;
    public final MrcSession session;
    public final LengthSortedBatches runner;
    private final ServedModel model;

    private LocalModel(ServingConfig config, ServedModel model) {
        this.config = config;
        this.model = model;
        this.engine = model.engine();
        this.session = model.session();
        this.runner = new LengthSortedBatches(session, config.batchMaxSize(), config.runnersHere());
    }

    public static LocalModel open(ServingConfig config) {
        return new LocalModel(config, ServedModel.open(config, SessionFactory.ONNX_RUNTIME));
    }

    public List<List<Entity>> extract(List<String> texts, Segmentation segmentation) {
        return extraction(texts, segmentation).entities();
    }

    /**
     * Runs a few batches of {@code windows} untimed, so that a timed run after it does not pay for
     * ONNX Runtime's lazy set-up (memory arenas, kernels chosen on first use).
     */
    public void warmUp(List<MrcWindow> windows) {
        runner.run(windows.subList(
                        0, Math.min(windows.size(), 4 * config.batchMaxSize().value())))
                .join();
    }

    /** The entities with how they were served: model passes run, and passes the presence gate saved. */
    public Extraction extraction(List<String> texts, Segmentation segmentation) {
        try {
            return engine.extract(texts, segmentation, runner).join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }

    @Override
    public void close() {
        model.close();
    }
}
