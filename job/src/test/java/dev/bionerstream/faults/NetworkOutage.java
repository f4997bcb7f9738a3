package dev.bionerstream.faults;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real network outage of one local TCP port: iptables drops every packet sent to it on the
 * loopback interface until {@link #close()}, as a crashed or partitioned server would look to its
 * clients (connections hang, nothing is refused). Needs root and iptables, which {@code .ci/run}
 * installs; without them the test fails with the reason rather than pass without an outage.
 */
public final class NetworkOutage implements AutoCloseable {
    private final int port;

    private NetworkOutage(int port) {
        this.port = port;
    }

    public static NetworkOutage of(int port) throws IOException, InterruptedException {
        iptables("-I", port);
        return new NetworkOutage(port);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        iptables("-D", port);
    }

    private static void iptables(String action, int port) throws IOException, InterruptedException {
        List<String> cmd = List.of(
                "iptables", action, "INPUT", "-i", "lo", "-p", "tcp", "--dport", String.valueOf(port), "-j", "DROP");
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IOException(
                    "cannot run iptables to simulate an outage (install it: apt-get install iptables; run as root)", e);
        }
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", cmd) + " failed: "
                    + new String(p.getInputStream().readAllBytes()));
        }
    }
}
