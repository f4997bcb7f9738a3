package dev.bionerstream.cli;

import dev.bionerstream.viewer.ViewerConfig;
import java.net.URI;
import picocli.CommandLine.Option;

/** Where the search-and-view page listens: {@code demo} and {@code view} share these options. */
final class ViewerArgs {
    @Option(
            names = "--viewer.host",
            defaultValue = ViewerConfig.DEFAULT_HOST,
            description = "address the page listens on; 0.0.0.0 exposes it (and so the index) to the network. "
                    + "Default: ${DEFAULT-VALUE}")
    String host;

    @Option(
            names = "--viewer.port",
            defaultValue = "" + ViewerConfig.DEFAULT_PORT,
            description = "port of the search-and-view page (0: any free port). Default: ${DEFAULT-VALUE}")
    int port;

    ViewerConfig config(String openSearchUrl, String index, String username, String password, String ca) {
        return new ViewerConfig(host, port, URI.create(openSearchUrl), index, username, password, ca);
    }
}
