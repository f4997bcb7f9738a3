package dev.bionerstream.demo;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The TCP sockets this JVM listens on, read from Linux's {@code /proc}: the sockets among this
 * process's file descriptors that {@code /proc/net/tcp} and {@code tcp6} list in state LISTEN.
 * What the kernel reports, so a server that says one address and binds another is caught.
 */
final class ListeningSockets {
    private static final Path FDS = Path.of("/proc/self/fd");
    private static final String LISTEN = "0A";

    private ListeningSockets() {}

    static boolean available() {
        return Files.isDirectory(FDS) && Files.isReadable(Path.of("/proc/net/tcp"));
    }

    static Set<InetSocketAddress> ofThisProcess() throws IOException {
        Set<String> inodes = socketInodes();
        Set<InetSocketAddress> out = new HashSet<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Path file = Path.of(table);
            if (!Files.isReadable(file)) {
                continue;
            }
            List<String> lines = Files.readAllLines(file);
            for (String line : lines.subList(1, lines.size())) {
                // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
                String[] f = line.trim().split("\\s+");
                if (f[3].equals(LISTEN) && inodes.contains(f[9])) {
                    out.add(address(f[1]));
                }
            }
        }
        return out;
    }

    private static Set<String> socketInodes() throws IOException {
        Set<String> out = new HashSet<>();
        try (Stream<Path> fds = Files.list(FDS)) {
            for (Path fd : fds.toList()) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        out.add(target.substring("socket:[".length(), target.length() - 1));
                    }
                } catch (IOException e) {
                    // closed since the listing (the listing's own descriptor among them)
                }
            }
        }
        return out;
    }

    /**
     * {@code 0100007F:1F90}: the address as 32-bit words (one for IPv4, four for IPv6), each
     * printed as the kernel holds it in memory, so written back in this machine's byte order it
     * gives the address's bytes; then the port in hex.
     */
    static InetSocketAddress address(String hex) throws IOException {
        String[] parts = hex.split(":");
        ByteBuffer bytes = ByteBuffer.allocate(parts[0].length() / 2).order(ByteOrder.nativeOrder());
        for (int w = 0; w < parts[0].length(); w += 8) {
            bytes.putInt((int) Long.parseLong(parts[0].substring(w, w + 8), 16));
        }
        return new InetSocketAddress(InetAddress.getByAddress(bytes.array()), Integer.parseInt(parts[1], 16));
    }
}
