package dev.bionerstream.sink.opensearch;

import java.net.URI;
import org.apache.hc.client5.http.auth.AuthScope;
import org.apache.hc.client5.http.auth.UsernamePasswordCredentials;
import org.apache.hc.client5.http.impl.auth.BasicCredentialsProvider;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.util.Timeout;
import org.opensearch.client.json.jackson.JacksonJsonpMapper;
import org.opensearch.client.transport.OpenSearchTransport;
import org.opensearch.client.transport.httpclient5.ApacheHttpClient5TransportBuilder;

/** Builds the HTTP transport (Apache HttpClient 5) of the opensearch-java client from the sink settings. */
final class OpenSearchClients {
    private OpenSearchClients() {}

    static OpenSearchTransport transport(OpenSearchSinkConfig config) {
        HttpHost[] hosts =
                config.hosts().stream().map(OpenSearchClients::httpHost).toArray(HttpHost[]::new);
        Timeout responseTimeout = Timeout.ofMilliseconds(config.requestTimeout().toMillis());
        ApacheHttpClient5TransportBuilder builder = ApacheHttpClient5TransportBuilder.builder(hosts)
                .setMapper(new JacksonJsonpMapper(DocumentJsonConverter.JSON))
                .setRequestConfigCallback(request -> request.setResponseTimeout(responseTimeout))
                .setConnectionConfigCallback(connection -> connection.setSocketTimeout(responseTimeout));
        if (config.username() != null) {
            BasicCredentialsProvider credentials = new BasicCredentialsProvider();
            for (HttpHost host : hosts) {
                credentials.setCredentials(
                        new AuthScope(host),
                        new UsernamePasswordCredentials(
                                config.username(), config.password().toCharArray()));
            }
            builder.setHttpClientConfigCallback(client -> client.setDefaultCredentialsProvider(credentials));
        }
        return builder.build();
    }

    static HttpHost httpHost(String url) {
        URI uri = URI.create(url);
        return new HttpHost(uri.getScheme(), uri.getHost(), uri.getPort());
    }
}
