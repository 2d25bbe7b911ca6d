package io.fluxperf.replay;

import io.fluxperf.engine.log.capture.CaptureFormat;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.testkit.RedisProcess;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real clients captured with tcpdump and replayed: Debian's python3-redis, python3-pymemcache (text)
 * and python3-pylibmc (binary), several connections each, paced, with mixed commands and values
 * of up to 8 KB, captured on {@code -i any} (Linux cooked v2) and on {@code -i lo} (Ethernet), over
 * IPv4 and IPv6. Replayed into a fresh server, the server's own counters (redis' INFO
 * commandstats, memcached's stats) equal the original server's exactly; at 1x the replay takes the
 * capture's time within 1 %.
 *
 * <p>tcpdump runs as root (as CI does). It is stopped only after the capture holds a last request
 * the test sends itself, so that no packet of the clients is still in its buffers.
 */
@ExtendWith(RealServers.class)
class CapturedClientsReplayTest {
    private static final String PYTHON = "/usr/bin/python3";

    @TempDir
    Path dir;

    /** A tcpdump writing a capture, stopped with SIGINT (as a user stops it) and waited for. */
    private static final class Tcpdump implements AutoCloseable {
        private final Process process;
        private final Path stderr;
        private boolean stopped;

        Tcpdump(String iface, int port, Path file, Path stderr) throws IOException {
            this.stderr = stderr;
            // -Z root: the file is written into the test's own (root-only) directory; -B: a buffer that a busy machine does not overflow
            process = new ProcessBuilder("tcpdump", "-U", "-i", iface, "-s", "0", "-B", "16384", "-Z", "root", "-w",
                    file.toString(), "tcp port " + port).redirectErrorStream(false).redirectError(stderr.toFile())
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            Awaitility.await("tcpdump listening").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
                    .failFast(() -> !process.isAlive())
                    .until(() -> Files.exists(stderr) && Files.readString(stderr).contains("listening on"));
        }

        /** Stops it with SIGINT and waits; returns its last words (packets captured, dropped). */
        String stop() throws IOException, InterruptedException {
            if (!stopped) {
                stopped = true;
                new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).start().waitFor();
                assertTrue(process.waitFor(20, TimeUnit.SECONDS), "tcpdump stops on SIGINT");
            }
            return Files.readString(stderr);
        }

        @Override
        public void close() throws Exception {
            if (!stopped && process.isAlive()) {
                stop();
            }
        }
    }

    private Path script(String name) throws IOException {
        Path p = dir.resolve(name);
        try (InputStream in = getClass().getResourceAsStream("clients/" + name)) {
            Files.copy(in, p);
        }
        return p;
    }

    private static void python(Path script, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(PYTHON, script.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the clients finish");
        assertEquals(0, p.exitValue(), "the clients ran: " + out);
    }

    /** Sends {@code request} on a connection of its own and reads the reply's first bytes. */
    private static void send(String host, int port, String request) throws IOException {
        try (Socket s = new Socket(InetAddress.getByName(host), port)) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            s.getInputStream().read(new byte[256]);
        }
    }

    /** Waits until the capture file holds {@code marker} (tcpdump has written everything before it). */
    private static void awaitCaptured(Path file, String marker) {
        byte[] m = marker.getBytes(StandardCharsets.ISO_8859_1);
        Awaitility.await("the capture holds " + marker).atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> indexOf(Files.readAllBytes(file), m) >= 0);
    }

    private static int indexOf(byte[] b, byte[] m) {
        outer:
        for (int i = 0; i + m.length <= b.length; i++) {
            for (int k = 0; k < m.length; k++) {
                if (b[i + k] != m[k]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** Captures the redis clients' traffic to {@code source} on {@code iface}, connecting to {@code host}. */
    private Path captureRedis(RedisProcess source, String iface, String host, int rounds, String pause) throws Exception {
        Path file = dir.resolve("redis-" + iface + ".pcap");
        try (Tcpdump tcpdump = new Tcpdump(iface, source.port(), file, dir.resolve("tcpdump.err"))) {
            python(script("redis_clients.py"), host, Integer.toString(source.port()), "3", Integer.toString(rounds), pause);
            String marker = "capture-end-" + UUID.randomUUID();
            send(host, source.port(), "*2\r\n$4\r\nECHO\r\n$" + marker.length() + "\r\n" + marker + "\r\n");
            awaitCaptured(file, marker);
            String last = tcpdump.stop();
            assertTrue(last.lines().anyMatch(l -> l.equals("0 packets dropped by kernel")), last);
        }
        return file;
    }

    /** The commands of INFO commandstats other than those the test itself sends (INFO, CONFIG). */
    private static Map<String, Long> clientCommands(RedisProcess r) {
        Map<String, Long> all = new TreeMap<>(r.commandstats());
        all.keySet().removeIf(k -> k.startsWith("info") || k.startsWith("config"));
        return all;
    }

    private static Replays.Run replay(Path file, String server, double speed) {
        return Replays.run(ReplayOptions.builder(file).server(server).speed(speed).live(false)
                .timeout(Duration.ofSeconds(20)).build());
    }

    @Test
    void redisClientsCapturedOnAnyOverIpv4ReplayExactly(RedisProcess source, RedisProcess target) throws Exception {
        Path file = captureRedis(source, "any", "127.0.0.1", 30, "0.002");
        Map<String, Long> original = clientCommands(source);
        Replays.Run run = replay(file, target.address(), 0);
        assertEquals(original, clientCommands(target), run.out());
        assertEquals(CaptureFormat.INSTANCE, run.result().format());
        assertTrue(run.out().contains("Replay: Note: pcap, Linux cooked v2, snap length 262,144 bytes"), run.out());
        assertEquals(0, run.result().badLines(), run.out());
        assertEquals(0, run.result().run().total().total().outcomes().error(), run.out());
        // every client has keys of its own, so the replay finds what the original found
        String hitRate = run.line("Hit rate: ");
        String original2 = hitRate.substring("Hit rate: original ".length(), hitRate.indexOf(','));
        assertTrue(hitRate.startsWith("Hit rate: original " + original2 + ", replay " + original2), hitRate);
    }

    @Test
    void redisClientsCapturedOnLoopbackOverIpv6ReplayExactly(RedisProcess target) throws Exception {
        try (RedisProcess source = RedisProcess.start("--bind", "127.0.0.1", "::1")) {
            Path file = captureRedis(source, "lo", "::1", 30, "0.002");
            Map<String, Long> original = clientCommands(source);
            Replays.Run run = replay(file, target.address(), 0);
            assertEquals(original, clientCommands(target), run.out());
            assertTrue(run.out().contains("Replay: Note: pcap, Ethernet"), run.out());
            assertTrue(run.out().contains("connections to [::1]:" + source.port()), run.out());
        }
    }

    private static final List<String> MEMCACHED_COUNTERS = List.of("cmd_get", "cmd_set", "cmd_touch", "get_hits",
            "get_misses", "delete_hits", "delete_misses", "incr_hits", "incr_misses", "decr_hits", "decr_misses",
            "cas_hits", "cas_misses", "cas_badval", "touch_hits", "touch_misses", "total_items", "curr_items");

    private static Map<String, Long> counters(MemcachedProcess m) {
        Map<String, Long> s = m.stats();
        Map<String, Long> out = new TreeMap<>();
        for (String k : MEMCACHED_COUNTERS) {
            out.put(k, s.get(k));
        }
        return out;
    }

    private Path captureMemcache(MemcachedProcess source, String iface, String host, int texts, int binaries)
            throws Exception {
        Path file = dir.resolve("memcache-" + iface + ".pcap");
        try (Tcpdump tcpdump = new Tcpdump(iface, source.port(), file, dir.resolve("tcpdump.err"))) {
            python(script("memcache_clients.py"), host, Integer.toString(source.port()), Integer.toString(texts),
                    Integer.toString(binaries), "25", "0.002");
            String marker = "capture-end-" + UUID.randomUUID();
            // a get the server counts as the clients' gets are counted, in the clients' protocol
            send(host, source.port(), texts > 0 ? "get " + marker + "\r\n" : binaryGet(marker));
            awaitCaptured(file, marker);
            String last = tcpdump.stop();
            assertTrue(last.lines().anyMatch(l -> l.equals("0 packets dropped by kernel")), last);
        }
        return file;
    }

    /** A binary protocol GetK of {@code key}, as ISO-8859-1 text. */
    private static String binaryGet(String key) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(24 + key.length());
        b.put((byte) 0x80).put((byte) 0x0c).putShort((short) key.length()).put((byte) 0).put((byte) 0).putShort((short) 0)
                .putInt(key.length()).putInt(0).putLong(0).put(key.getBytes(StandardCharsets.ISO_8859_1));
        return new String(b.array(), StandardCharsets.ISO_8859_1);
    }

    @Test
    void textAndBinaryMemcacheClientsOnOnePortCapturedOnAnyOverIpv6ReplayExactly(MemcachedProcess target) throws Exception {
        try (MemcachedProcess source = MemcachedProcess.start("-l", "::1")) {
            Path file = captureMemcache(source, "any", "::1", 2, 2);
            Map<String, Long> original = counters(source);
            Replays.Run run = replay(file, target.address(), 0);
            assertEquals(original, counters(target), run.out());
            assertEquals("memcache", run.result().protocol(), "text and binary clients: replayed over text");
            assertEquals(0, run.result().badLines(), run.out());
            assertTrue(run.out().contains("Adjusted: "), run.out()); // noreply dropped, quiet gets sent loud
        }
    }

    @Test
    void binaryMemcacheClientsCapturedOnLoopbackOverIpv4ReplayOverTheBinaryProtocol(MemcachedProcess source,
                                                                                   MemcachedProcess target)
            throws Exception {
        Path file = captureMemcache(source, "lo", "127.0.0.1", 0, 3);
        Map<String, Long> original = counters(source);
        Replays.Run run = replay(file, target.address(), 0);
        assertEquals(original, counters(target), run.out());
        assertEquals("memcache-binary", run.result().protocol());
        assertEquals(run.line("Hit rate: ").replaceAll("original ([0-9.]+) %, replay ([0-9.]+) %.*", "$1 $2"),
                run.line("Hit rate: ").replaceAll("original ([0-9.]+) %, replay ([0-9.]+) %.*", "$1 $1"), run.out());
    }

    /** At 1x the replay keeps the capture's timing: it takes the capture's time within 1 %. */
    @Test
    @Tag("timing")
    void atOneTimesTheReplayTakesTheCapturesTimeWithinOnePercent(RedisProcess source, RedisProcess target) throws Exception {
        Path file = captureRedis(source, "any", "127.0.0.1", 120, "0.02"); // about 3 s of paced clients
        Replays.Run run = replay(file, target.address(), 1);
        double original = run.result().originalSeconds();
        double replayed = run.result().replaySeconds();
        assertTrue(original > 2, run.out());
        assertTrue(Math.abs(replayed - original) <= 0.01 * original,
                "original " + original + " s, replay " + replayed + " s: " + run.line("Duration: "));
        assertEquals(clientCommands(source), clientCommands(target), run.out());
    }
}
