package dev.bionerstream.sink.opensearch;

import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.options.OptionKeys;
import java.util.Map;

/**
 * The index sink of {@link DocumentEntities} built the one way the job builds its own: the options as
 * a command line gives them ({@code "--opensearch.index", "docs"}), read by {@link OpenSearchSinkConfig#from},
 * then {@link OpenSearchSink#of}.
 */
public final class TestSinks {
    private TestSinks() {}

    /** The settings {@code options} give; unset hosts and credentials come from {@code env}. */
    public static OpenSearchSinkConfig config(Map<String, String> env, String... options) {
        return OpenSearchSinkConfig.from(OptionKeys.parseArgs(options), env);
    }

    public static OpenSearchSink<DocumentEntities> documents(Map<String, String> env, String... options) {
        return OpenSearchSink.of(config(env, options), new DocumentJsonConverter());
    }

    /** A sink with no environment: {@code options} name the hosts. */
    public static OpenSearchSink<DocumentEntities> documents(String... options) {
        return documents(Map.of(), options);
    }
}
