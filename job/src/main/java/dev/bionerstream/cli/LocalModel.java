package dev.bionerstream.cli;

import dev.bionerstream.engine.Entity;
import dev.bionerstream.engine.Extraction;
import dev.bionerstream.engine.LengthSortedBatches;
import dev.bionerstream.engine.MrcEngine;
import dev.bionerstream.engine.Segmentation;
import dev.bionerstream.inference.MrcSession;
import dev.bionerstream.serving.ServedModel;
import dev.bionerstream.serving.ServingConfig;
import dev.bionerstream.serving.SessionFactory;
import java.util.List;
import java.util.concurrent.CompletionException;

/** The engine and its model session in this process, windows run in length-sorted batches on the caller's thread. */
final class LocalModel implements AutoCloseable {
    final ServingConfig config;
    final MrcEngine engine;
    final MrcSession session;
    final LengthSortedBatches runner;
    private final ServedModel model;

    private LocalModel(ServingConfig config, ServedModel model) {
        this.config = config;
        this.model = model;
        this.engine = model.engine();
        this.session = model.session();
        this.runner = new LengthSortedBatches(session, config.batchMaxSize(), config.runnersHere());
    }

    static LocalModel open(ServingConfig config) {
        return new LocalModel(config, ServedModel.open(config, SessionFactory.ONNX_RUNTIME));
    }

    List<List<Entity>> extract(List<String> texts, Segmentation segmentation) {
        return extraction(texts, segmentation).entities();
    }

    /** The entities with how they were served: model passes run, and passes the presence gate saved. */
    Extraction extraction(List<String> texts, Segmentation segmentation) {
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
