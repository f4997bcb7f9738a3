package dev.bionerstream.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The proxy's faults against a local echo server: what the outage ITCases rely on. */
class TcpProxyTest {
    private ServerSocket echo;
    private final List<Integer> echoed = new CopyOnWriteArrayList<>();
    private TcpProxy proxy;

    @BeforeEach
    void start() throws IOException {
        echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(() -> {
            while (!echo.isClosed()) {
                try {
                    Socket s = echo.accept();
                    Thread echoing = new Thread(() -> {
                        try (s) {
                            int b;
                            while ((b = s.getInputStream().read()) >= 0) {
                                echoed.add(b);
                                s.getOutputStream().write(b);
                            }
                        } catch (IOException e) {
                            // the proxy went away
                        }
                    });
                    echoing.setDaemon(true);
                    echoing.start();
                } catch (IOException e) {
                    return;
                }
            }
        });
        t.setDaemon(true);
        t.start();
        proxy = TcpProxy.to("localhost", echo.getLocalPort());
    }

    @AfterEach
    void stop() throws IOException {
        proxy.close();
        echo.close();
    }

    Socket client() throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
        s.setSoTimeout(2000);
        return s;
    }

    static int roundTrip(Socket s, int value) throws IOException {
        s.getOutputStream().write(value);
        return new DataInputStream(s.getInputStream()).readUnsignedByte();
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void forwardsBothWays() throws IOException {
        try (Socket s = client()) {
            assertThat(roundTrip(s, 7)).isEqualTo(7);
        }
    }

    @Test
    void aDropPassesNothingUntilRestoredThenDeliversWhatWaited() throws IOException {
        try (Socket s = client()) {
            assertThat(roundTrip(s, 1)).isEqualTo(1);
            try (TcpProxy.Outage outage = proxy.outage()) {
                s.setSoTimeout(500);
                assertThatThrownBy(() -> roundTrip(s, 2)).isInstanceOf(SocketTimeoutException.class);
            }
            s.setSoTimeout(2000);
            assertThat(s.getInputStream().read()).isEqualTo(2);
        }
    }

    @Test
    void whatAClientSentBeforeClosingDuringADropNeverArrives() throws IOException {
        try (Socket late = client()) {
            assertThat(roundTrip(late, 1)).isEqualTo(1);
            proxy.drop();
            try (Socket s = client()) {
                s.getOutputStream().write(9); // sent into the partition, then given up on
            }
            late.getOutputStream().write(2); // sent into the partition on a connection that survives it
            sleep(500); // the proxy sees the first close (an outage lasts far longer)
            proxy.restore();
            assertThat(late.getInputStream().read()).isEqualTo(2);
            assertThat(echoed).as("bytes the echo server received").containsExactly(1, 2);
        }
    }

    @Test
    void aDelaySlowsEveryChunk() throws IOException {
        proxy.delay(Duration.ofMillis(300));
        try (Socket s = client()) {
            long start = System.nanoTime();
            assertThat(roundTrip(s, 3)).isEqualTo(3);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(600));
        }
    }

    @Test
    void aResetEndsOpenConnectionsAndRefusesNewOnes() throws IOException {
        try (Socket s = client()) {
            assertThat(roundTrip(s, 4)).isEqualTo(4);
            proxy.reset();
            assertThatThrownBy(() -> roundTrip(s, 5)).isInstanceOf(IOException.class);
        }
        try (Socket s = client()) {
            assertThatThrownBy(() -> roundTrip(s, 6)).isInstanceOf(IOException.class);
        }
        proxy.restore();
        try (Socket s = client()) {
            assertThat(roundTrip(s, 8)).isEqualTo(8);
        }
    }
}
