package dev.bionerstream.faults;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP proxy on a local port in front of one server, for outage tests without root: the way
 * Toxiproxy is used with Testcontainers. Clients connect to {@link #port()}; the proxy forwards both
 * ways until told to misbehave:
 *
 * <ul>
 *   <li>{@link #drop()}: nothing passes either way, as in a network partition (what an {@code
 *       iptables ... -j DROP} rule does): what is sent meanwhile arrives after {@link #restore()},
 *       as TCP retransmits it, unless its sender closed the connection in between;
 *   <li>{@link #delay(Duration)}: every chunk waits that long before it is forwarded;
 *   <li>{@link #reset()}: every open connection is reset (RST) and new ones are reset at once, as a
 *       crashed server's host answers.
 * </ul>
 */
public final class TcpProxy implements AutoCloseable {
    private enum Mode {
        PASS,
        DROP,
        RESET
    }

    private final ServerSocket server;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final Set<Pipe> pipes = new HashSet<>(); // holding bytes; guarded by this
    private InetSocketAddress target; // guarded by this
    private volatile long delayMillis;
    private Mode mode = Mode.PASS; // guarded by this

    private TcpProxy(ServerSocket server) {
        this.server = server;
        daemon("tcp-proxy-" + server.getLocalPort(), this::acceptLoop);
    }

    /**
     * A proxy on a free loopback port whose server is named later ({@link #forwardTo}): a Kafka
     * broker must know the proxy's port before it starts, to advertise it.
     */
    public static TcpProxy start() throws IOException {
        return new TcpProxy(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
    }

    public static TcpProxy to(String host, int port) throws IOException {
        TcpProxy proxy = start();
        proxy.forwardTo(host, port);
        return proxy;
    }

    /** Names the server; connections made before wait until now. */
    public synchronized void forwardTo(String host, int port) {
        target = new InetSocketAddress(host, port);
        notifyAll();
    }

    public int port() {
        return server.getLocalPort();
    }

    public synchronized void drop() {
        mode = Mode.DROP;
    }

    public void delay(Duration d) {
        delayMillis = d.toMillis();
    }

    public synchronized void reset() {
        mode = Mode.RESET;
        sockets.forEach(this::abort);
    }

    /** Back to forwarding at full speed; what waited during a {@link #drop()} goes on. */
    public synchronized void restore() {
        mode = Mode.PASS;
        delayMillis = 0;
        pipes.forEach(Pipe::release);
        pipes.clear();
    }

    /** A partition for as long as the returned outage is open: {@code try (var o = proxy.outage()) {...}}. */
    public Outage outage() {
        drop();
        return this::restore;
    }

    /** An outage that ends when closed. */
    @FunctionalInterface
    public interface Outage extends AutoCloseable {
        @Override
        void close();
    }

    @Override
    public void close() throws IOException {
        server.close();
        sockets.forEach(this::abort);
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                if (currentMode() == Mode.RESET) {
                    abort(client);
                    continue;
                }
                sockets.add(client);
                daemon("tcp-proxy-connect-" + port(), () -> connect(client));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void connect(Socket client) {
        try {
            InetSocketAddress to = awaitTarget();
            Socket upstream = new Socket(to.getAddress(), to.getPort());
            sockets.add(upstream);
            Pipe up = new Pipe(client, upstream);
            Pipe down = new Pipe(upstream, client);
            daemon("tcp-proxy-up-" + port(), up::run);
            daemon("tcp-proxy-down-" + port(), down::run);
        } catch (IOException | InterruptedException e) {
            abort(client);
        }
    }

    /**
     * One direction of one connection. During a drop it holds what it reads instead of forwarding;
     * on {@link #restore()} the held bytes go on, unless the sender closed meanwhile: as in a
     * partition, where what a client sent before giving up never reaches the server.
     */
    private final class Pipe {
        private final Socket from;
        private final Socket to;
        private final ByteArrayOutputStream held = new ByteArrayOutputStream(); // guarded by TcpProxy.this

        Pipe(Socket from, Socket to) {
            this.from = from;
            this.to = to;
        }

        void run() {
            byte[] buffer = new byte[64 * 1024];
            try {
                InputStream in = from.getInputStream();
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    if (hold(buffer, n)) {
                        continue;
                    }
                    long delay = delayMillis;
                    if (delay > 0) {
                        Thread.sleep(delay);
                    }
                    to.getOutputStream().write(buffer, 0, n);
                }
            } catch (IOException | InterruptedException e) {
                // one side closed or was reset: the other goes too, as a real connection would
            } finally {
                synchronized (TcpProxy.this) {
                    held.reset();
                    pipes.remove(this);
                }
                abort(from);
                abort(to);
            }
        }

        /** Keeps the chunk while traffic is dropped; true if it was kept. */
        private boolean hold(byte[] buffer, int n) throws IOException {
            synchronized (TcpProxy.this) {
                if (mode == Mode.RESET) {
                    throw new IOException("reset by the proxy");
                }
                if (mode == Mode.DROP) {
                    held.write(buffer, 0, n);
                    pipes.add(this);
                    return true;
                }
                return false;
            }
        }

        /** Called with the proxy's lock held, so nothing read later overtakes what was held. */
        void release() {
            try {
                held.writeTo(to.getOutputStream());
            } catch (IOException e) {
                abort(from);
                abort(to);
            }
            held.reset();
        }
    }

    private synchronized Mode currentMode() {
        return mode;
    }

    private synchronized InetSocketAddress awaitTarget() throws InterruptedException {
        while (target == null) {
            wait();
        }
        return target;
    }

    private static void daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
    }

    /** Closes with SO_LINGER 0, so the peer gets a reset (RST) instead of an orderly end of stream. */
    private void abort(Socket s) {
        sockets.remove(s);
        try {
            if (!s.isClosed()) {
                s.setSoLinger(true, 0);
                s.close();
            }
        } catch (IOException e) {
            // already gone
        }
    }
}
