package dev.bionerstream.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The demo's broker is reachable from this machine only: every socket it listens on, client and
 * controller, is bound to a loopback address, as the kernel reports it. Kafka's test kit binds
 * all interfaces unless {@link EmbeddedKafka} stops it, so this fails if that step goes.
 */
@RunsBesideOthers
class EmbeddedKafkaITCase {
    @Test
    void theBrokerListensOnLoopbackOnly() throws Exception {
        assertThat(ListeningSockets.available())
                .as("Linux's /proc/self/net/tcp, where this test reads the listening sockets")
                .isTrue();
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            // the sockets on the broker's ports: other tests running beside this one open sockets of their own
            Set<Integer> ports = new HashSet<>();
            for (String endpoint : (kafka.bootstrapServers() + "," + kafka.bootstrapControllers()).split(",")) {
                ports.add(Integer.parseInt(endpoint.replaceAll(".*:", "")));
            }
            Set<InetSocketAddress> broker = ListeningSockets.ofThisProcess().stream()
                    .filter(s -> ports.contains(s.getPort()))
                    .collect(Collectors.toSet());

            assertThat(broker)
                    .as("the broker's listening sockets: client and controller")
                    .extracting(InetSocketAddress::getPort)
                    .containsAll(ports)
                    .hasSizeGreaterThanOrEqualTo(2);
            assertThat(broker).allSatisfy(s -> assertThat(s.getAddress().isLoopbackAddress())
                    .as("%s is a loopback address", s)
                    .isTrue());
            // still a working broker on those sockets
            kafka.createTopics(1, "t");
            assertThat(kafka.topics()).contains("t");
        }
    }

    @Test
    void procAddressesReadInTheKernelsByteOrder() throws Exception {
        assertThat(java.nio.ByteOrder.nativeOrder())
                .as("the byte order of x86 and arm64, the machines ONNX Runtime's jar runs on")
                .isEqualTo(java.nio.ByteOrder.LITTLE_ENDIAN);
        assertThat(ListeningSockets.address("0100007F:1F90")).isEqualTo(new InetSocketAddress("127.0.0.1", 8080));
        assertThat(ListeningSockets.address("00000000:0050").getAddress().isAnyLocalAddress())
                .isTrue();
        assertThat(ListeningSockets.address("00000000000000000000000001000000:0050")
                        .getAddress()
                        .isLoopbackAddress())
                .as("::1")
                .isTrue();
        assertThat(List.of(ListeningSockets.address("0000000000000000FFFF00000100007F:0050")
                        .getAddress()
                        .getHostAddress()))
                .as("::ffff:127.0.0.1")
                .containsExactly("127.0.0.1");
    }
}
