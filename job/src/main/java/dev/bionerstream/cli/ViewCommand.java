package dev.bionerstream.cli;

import dev.bionerstream.options.CommandLineFlags;
import dev.bionerstream.options.CommandLineFlags.Flag;
import dev.bionerstream.sink.opensearch.OpenSearchSinkConfig;
import dev.bionerstream.sink.opensearch.OpenSearchSinkOptions;
import dev.bionerstream.viewer.DeadLetterCounter;
import dev.bionerstream.viewer.ViewerConfig;
import dev.bionerstream.viewer.ViewerServer;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Serves the search-and-view page over a running deployment's index until stopped. */
@Command(
        name = "view",
        mixinStandardHelpOptions = true,
        modelTransformer = CommandLineFlags.class,
        header = "A page to search the job's index and see the entities",
        description = {
            "Search by entity, type, free text, document id and year; each document with its entities highlighted. --opensearch defaults to OPENSEARCH_HOSTS (its first node); basic auth from OPENSEARCH_USERNAME and OPENSEARCH_PASSWORD; an https node signed by its own CA needs OPENSEARCH_CA_CERT (its PEM, or a file path)."
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  ./bioner view --opensearch http://localhost:9200   # then open http://127.0.0.1:8090",
            "  OPENSEARCH_USERNAME=reader OPENSEARCH_PASSWORD=... OPENSEARCH_CA_CERT=ca.crt \\",
            "      ./bioner view --opensearch https://HOST:9200"
        })
final class ViewCommand implements CommandLineFlags.Settings, Callable<Integer> {
    @Option(
            names = "--opensearch",
            required = true,
            defaultValue = "${env:OPENSEARCH_HOSTS}",
            description = "the OpenSearch node, http[s]://host:port (env OPENSEARCH_HOSTS; basic auth from "
                    + "OPENSEARCH_USERNAME and OPENSEARCH_PASSWORD)")
    String openSearch;

    /** The job's index ({@code --index} for short). */
    @Override
    public List<Flag> settings() {
        return List.of(Flag.of(OpenSearchSinkOptions.INDEX, "--index"));
    }

    @Spec
    CommandSpec spec;

    @Mixin
    ViewerArgs viewer;

    @Override
    public Integer call() throws Exception {
        // OPENSEARCH_HOSTS may list several nodes, as the sink takes it; the page needs one.
        String node = openSearch.split(",")[0].strip();
        String index = CommandLineFlags.given(spec).get(OpenSearchSinkOptions.INDEX);
        ViewerConfig config = viewer.config(
                node,
                index,
                System.getenv(OpenSearchSinkConfig.ENV_USERNAME),
                System.getenv(OpenSearchSinkConfig.ENV_PASSWORD),
                System.getenv(OpenSearchSinkConfig.ENV_CA));
        try (ViewerServer server = ViewerServer.start(config, DeadLetterCounter.NONE, new VocabularyConcepts())) {
            System.out.printf("Search and view %s of %s: %s (Ctrl-C stops it)%n", index, node, server.url());
            Thread.currentThread().join();
        }
        return 0;
    }
}
