package dev.bionerstream.serving;

import dev.bionerstream.engine.MrcEngine;
import dev.bionerstream.engine.RefusedSettingException;
import dev.bionerstream.inference.MrcSession;
import dev.bionerstream.model.ModelBundle;

/**
 * A model ready to serve, assembled in one place for the job and the command line: the bundle its
 * config names, the engine over it and the model session. How windows reach the session (the job's
 * shared micro-batcher, the command line's length-sorted batches) is the caller's.
 */
public final class ServedModel implements AutoCloseable {
    private final MrcEngine engine;
    private final MrcSession session;

    private ServedModel(MrcEngine engine, MrcSession session) {
        this.engine = engine;
        this.session = session;
    }

    /** Loads {@code config}'s bundle, checks its types, gate and corpora, then opens its session with {@code factory}. */
    public static ServedModel open(ServingConfig config, SessionFactory factory) {
        ModelBundle bundle = config.loadBundle();
        MrcEngine engine;
        try {
            // checks them before loading the model
            engine = new MrcEngine(bundle, config.entityTypes(), config.gate(), config.corpora(), config.geneSpans());
        } catch (RefusedSettingException e) {
            throw ServingConfig.worded(e);
        }
        try {
            return new ServedModel(engine, factory.open(bundle, config.inferenceHere()));
        } catch (RuntimeException failed) {
            engine.close();
            throw failed;
        }
    }

    public MrcEngine engine() {
        return engine;
    }

    public MrcSession session() {
        return session;
    }

    @Override
    public void close() {
        session.close();
        engine.close();
    }
}
