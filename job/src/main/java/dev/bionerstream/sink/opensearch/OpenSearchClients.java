package dev.bionerstream.sink.opensearch;

import dev.bionerstream.tls.PemTrust;
import java.net.URI;
import javax.net.ssl.SSLContext;
import org.apache.hc.client5.http.auth.AuthScope;
import org.apache.hc.client5.http.auth.UsernamePasswordCredentials;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.auth.BasicCredentialsProvider;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManager;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.client5.http.ssl.ClientTlsStrategyBuilder;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.ssl.SSLContexts;
import org.apache.hc.core5.util.TimeValue;
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
        BasicCredentialsProvider credentials = new BasicCredentialsProvider();
        if (config.username() != null) {
            for (HttpHost host : hosts) {
                credentials.setCredentials(
                        new AuthScope(host),
                        new UsernamePasswordCredentials(
                                config.username(), config.password().toCharArray()));
            }
        }
        PoolingAsyncClientConnectionManager pool = connections(config, responseTimeout);
        // Closing the pool compares TimeValues, whose first comparison loads a class of its own. A task's
        // clean-up after a failover can run when its job jar can no longer load classes, and the
        // NoClassDefFoundError there is fatal to the TaskManager (seen in a soak): load it now.
        TimeValue.ofSeconds(1).compareTo(TimeValue.ofMilliseconds(1));
        return ApacheHttpClient5TransportBuilder.builder(hosts)
                .setMapper(new JacksonJsonpMapper(DocumentJsonConverter.JSON))
                .setRequestConfigCallback(request -> request.setResponseTimeout(responseTimeout))
                .setHttpClientConfigCallback(
                        client -> client.setConnectionManager(pool).setDefaultCredentialsProvider(credentials))
                .build();
    }

    /**
     * The client's connection pool as the transport builder makes its own, but trusting the cluster's
     * CA when {@code opensearch.tls.ca} gives one (the builder's trusts the JVM's CAs only).
     */
    private static PoolingAsyncClientConnectionManager connections(
            OpenSearchSinkConfig config, Timeout responseTimeout) {
        SSLContext tls = config.ca() == null
                ? SSLContexts.createSystemDefault()
                : PemTrust.sslContext(config.ca(), OpenSearchSinkOptions.CA.key());
        return PoolingAsyncClientConnectionManagerBuilder.create()
                .setTlsStrategy(
                        ClientTlsStrategyBuilder.create().setSslContext(tls).buildAsync())
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.ofMilliseconds(
                                ApacheHttpClient5TransportBuilder.DEFAULT_CONNECT_TIMEOUT_MILLIS))
                        .setSocketTimeout(responseTimeout)
                        .build())
                .setMaxConnPerRoute(ApacheHttpClient5TransportBuilder.DEFAULT_MAX_CONN_PER_ROUTE)
                .setMaxConnTotal(ApacheHttpClient5TransportBuilder.DEFAULT_MAX_CONN_TOTAL)
                .build();
    }

    static HttpHost httpHost(String url) {
        URI uri = URI.create(url);
        return new HttpHost(uri.getScheme(), uri.getHost(), uri.getPort());
    }
}
