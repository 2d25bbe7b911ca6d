package io.fluxperf.replay;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.log.capture.CaptureFormat;
import io.fluxperf.replay.profile.LogProfile;
import io.fluxperf.replay.profile.Profiler;
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
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real clients captured with tcpdump and replayed: Debian's python3-redis, python3-pymemcache (text)
 * and python3-pylibmc (binary), and a meta-protocol client of raw sockets, several connections
 * each, paced, with mixed commands and values of up to 8 KB, captured on {@code -i any} (Linux
 * cooked v2) and on {@code -i lo} (Ethernet), over IPv4 and IPv6. Replayed into a fresh server, the
 * server's own counters (redis' INFO commandstats, memcached's stats) equal the original server's
 * exactly; at 1x the replay takes the capture's time within 1 %.
 *
 * <p>Two tcpdump sessions serve every test (each captures a redis and a memcached server at once,
 * so a replay picks its server with {@code --capture-server}): {@code -i any} with redis over IPv4
 * and memcached's text, binary and meta clients over IPv6; {@code -i lo} with redis over IPv6 and
 * binary memcache clients over IPv4. Each session is made once, by the first test that needs it.
 * tcpdump runs as root (as CI does). It is stopped only after the capture holds a last request
 * per server that the test sends itself, so that no packet of the clients is still in its buffers.
 */
@ExtendWith(RealServers.class)
class CapturedClientsReplayTest {
    private static final String PYTHON = "/usr/bin/python3";

    @TempDir
    static Path dir;

    /** A tcpdump writing a capture, stopped with SIGINT (as a user stops it) and waited for. */
    private static final class Tcpdump implements AutoCloseable {
        private final Process process;
        private final Path stderr;
        private boolean stopped;

        Tcpdump(String iface, String filter, Path file, Path stderr) throws IOException {
            this.stderr = stderr;
            // -Z root: the file is written into the test's own (root-only) directory; -B: a buffer that a busy machine does not overflow
            process = new ProcessBuilder("tcpdump", "-U", "-i", iface, "-s", "0", "-B", "16384", "-Z", "root", "-w",
                    file.toString(), filter).redirectErrorStream(false).redirectError(stderr.toFile())
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

    private static Path script(String name) throws IOException {
        Path p = dir.resolve(name);
        if (!Files.exists(p)) {
            try (InputStream in = CapturedClientsReplayTest.class.getResourceAsStream("clients/" + name)) {
                Files.copy(in, p);
            }
        }
        return p;
    }

    /** Starts a client script; {@link #finish} waits for it. Several run at once, as clients of several servers do. */
    private static Process python(String script, Object... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(PYTHON, script(script).toString()));
        for (Object a : args) {
            command.add(a.toString());
        }
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    private static void finish(Process p) throws IOException, InterruptedException {
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

    /** One tcpdump session's capture of a redis and a memcached server, and their counters once the clients were done. */
    private record Session(Path file, String redis, Map<String, Long> redisCommands, Set<String> redisKeys,
                           String memcached, Map<String, Long> memcachedCounters) {
    }

    private static Session any;
    private static Session lo;

    /**
     * {@code -i any}: python3-redis over IPv4, paced 35 ms a round for about 3 s (the 1x test's capture too);
     * pymemcache, pylibmc and the meta client together on one memcached port over IPv6.
     */
    private static synchronized Session any() throws Exception {
        // a rerun of one test (surefire's) comes after the class's directory was deleted: capture again
        if (any == null || !Files.exists(any.file())) {
            try (RedisProcess redis = RedisProcess.start();
                 MemcachedProcess memcached = MemcachedProcess.start("-l", "::1")) {
                any = capture("any", redis, "127.0.0.1", memcached, "::1", () -> List.of(
                        python("redis_clients.py", "127.0.0.1", redis.port(), 3, 80, "0.035"),
                        python("memcache_clients.py", "::1", memcached.port(), 2, 2, 25, "0.002"),
                        python("meta_clients.py", "::1", memcached.port(), 2, 25, "0.002")), "get ");
            }
        }
        return any;
    }

    /** {@code -i lo}: python3-redis over IPv6, pylibmc (binary) over IPv4. */
    private static synchronized Session lo() throws Exception {
        if (lo == null || !Files.exists(lo.file())) {
            try (RedisProcess redis = RedisProcess.start("--bind", "127.0.0.1", "::1");
                 MemcachedProcess memcached = MemcachedProcess.start("-l", "127.0.0.1")) {
                lo = capture("lo", redis, "::1", memcached, "127.0.0.1", () -> List.of(
                        python("redis_clients.py", "::1", redis.port(), 3, 30, "0.002"),
                        python("memcache_clients.py", "127.0.0.1", memcached.port(), 0, 3, 25, "0.002")), null);
            }
        }
        return lo;
    }

    private interface Clients {
        List<Process> start() throws IOException;
    }

    /**
     * Captures the clients' traffic on {@code iface}; the last request to each server is the test's
     * own (memcached's in the text protocol when {@code textMarker} is given, else in binary, so
     * that memcached counts it as it counts the clients' gets).
     */
    private static Session capture(String iface, RedisProcess redis, String redisHost, MemcachedProcess memcached,
                                   String memcachedHost, Clients clients, String textMarker) throws Exception {
        Path file = dir.resolve(iface + ".pcap");
        try (Tcpdump tcpdump = new Tcpdump(iface, "tcp port " + redis.port() + " or tcp port " + memcached.port(), file,
                dir.resolve(iface + ".err"))) {
            for (Process p : clients.start()) {
                finish(p);
            }
            String redisMarker = "capture-end-" + UUID.randomUUID();
            send(redisHost, redis.port(), "*2\r\n$4\r\nECHO\r\n$" + redisMarker.length() + "\r\n" + redisMarker + "\r\n");
            String memcachedMarker = "capture-end-" + UUID.randomUUID();
            send(memcachedHost, memcached.port(), textMarker != null ? textMarker + memcachedMarker + "\r\n"
                    : binaryGet(memcachedMarker));
            awaitCaptured(file, redisMarker);
            awaitCaptured(file, memcachedMarker);
            String last = tcpdump.stop();
            assertTrue(last.lines().anyMatch(l -> l.equals("0 packets dropped by kernel")), last);
        }
        Map<String, Long> commands = clientCommands(redis); // before KEYS, which the capture does not hold
        return new Session(file, endpoint(redisHost, redis.port()), commands, keys(redis),
                endpoint(memcachedHost, memcached.port()), counters(memcached));
    }

    @SuppressWarnings("unchecked")
    private static Set<String> keys(RedisProcess redis) {
        return ((List<Object>) redis.command("KEYS", "*")).stream().map(Object::toString)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static String endpoint(String host, int port) {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    /** The commands of INFO commandstats other than those the test itself sends (INFO, CONFIG). */
    private static Map<String, Long> clientCommands(RedisProcess r) {
        Map<String, Long> all = new TreeMap<>(r.commandstats());
        all.keySet().removeIf(k -> k.startsWith("info") || k.startsWith("config"));
        return all;
    }

    private static Replays.Run replay(Path file, String captureServer, String server, double speed) {
        return Replays.run(ReplayOptions.builder(file).server(server).speed(speed).live(false)
                .captureServers(List.of(captureServer)).timeout(Duration.ofSeconds(20)).build());
    }

    @Test
    void redisClientsCapturedOnAnyOverIpv4ReplayExactly(RedisProcess target) throws Exception {
        Session s = any();
        UserError twoServers = assertThrows(UserError.class, () -> CaptureFormat.INSTANCE.prepare(s.file(), List.of(), null));
        assertTrue(twoServers.getMessage().contains("the capture holds requests to 2 servers"), twoServers.getMessage());
        Replays.Run run = replay(s.file(), s.redis(), target.address(), 0);
        assertEquals(s.redisCommands(), clientCommands(target), run.out());
        assertEquals(CaptureFormat.INSTANCE, run.result().format());
        assertTrue(run.out().contains("Replay: Note: pcap, Linux cooked v2, snap length 262,144 bytes"), run.out());
        assertEquals(0, run.result().badLines(), run.out());
        assertEquals(0, run.result().run().total().total().outcomes().error(), run.out());
        // every client has keys of its own, so the replay finds what the original found
        String hitRate = run.line("Hit rate: ");
        String original = hitRate.substring("Hit rate: original ".length(), hitRate.indexOf(','));
        assertTrue(hitRate.startsWith("Hit rate: original " + original + ", replay " + original), hitRate);

        // profile reads the capture as replay does: its requests and its hit rate are the replay's originals
        assertThrows(UserError.class, () -> ReadableLog.open(s.file(), null));
        LogProfile p = Profiler.of(ReadableLog.open(s.file(), null, List.of(s.redis())), false);
        assertEquals(s.redisCommands().values().stream().mapToLong(Long::longValue).sum(), p.requests());
        assertEquals("redis", p.protocol());
        assertEquals(3 + 1, p.clients(), "the three clients' connections and the test's own");
        OriginalReplies o = run.result().originalReplies();
        assertEquals(o.readHits() + o.readMisses(), p.repliedReads());
        assertEquals((double) o.readHits() / (o.readHits() + o.readMisses()), p.hitRate(), 1e-12);
    }

    /**
     * Read on 2 and 3 threads split by connection ({@code --reader-threads}), the real clients' captures
     * give each server's commands exactly as one thread gives them: order, clients, places, original
     * replies, verbs and what was counted.
     */
    @Test
    void readOnSeveralThreadsEachCaptureGivesWhatOneThreadGives() throws Exception {
        for (Session s : List.of(any(), lo())) {
            for (String server : List.of(s.redis(), s.memcached())) {
                CaptureFormat.Prepared p = CaptureFormat.INSTANCE.prepare(s.file(),
                        List.of(io.fluxperf.engine.log.capture.Endpoint.parse(server, "--capture-server")), null);
                List<String> one = read(p, 1);
                assertTrue(one.size() > 50, server + ": " + one.size());
                assertEquals(one, read(p, 2), server + " on 2 threads");
                assertEquals(one, read(p, 3), server + " on 3 threads");
            }
        }
    }

    /** Each command as a line, then what the reader counted. */
    private static List<String> read(CaptureFormat.Prepared p, int threads) throws IOException {
        io.fluxperf.engine.log.ReaderContext ctx = new io.fluxperf.engine.log.ReaderContext("capture",
                new io.fluxperf.engine.log.BadLines(false), new io.fluxperf.engine.log.VerbTable(),
                new io.fluxperf.engine.log.LogStats(), null, false, p.protocol(), c -> true);
        List<String> out = new ArrayList<>();
        java.util.HexFormat hex = java.util.HexFormat.of();
        try (io.fluxperf.engine.log.LogReader r = threads == 1 ? p.open(ctx) : p.open(ctx, threads)) {
            io.fluxperf.engine.log.LogEntry e = new io.fluxperf.engine.log.LogEntry();
            while (r.next(e.reset())) {
                out.add(e.client + " " + ctx.verbs.name(e.verb) + " " + e.command + " " + e.timeNanos + " " + e.line + " "
                        + e.position + " " + e.originalReply + " " + hex.formatHex(e.keys, 0, e.keyStart(e.keyCount)) + " "
                        + hex.formatHex(e.args, 0, e.argStart(e.argCount)) + " "
                        + (e.valueLogged ? hex.formatHex(e.value, 0, e.valueLength) : "-") + " " + e.synthSize);
            }
            out.add("skipped " + ctx.stats.skipped() + "; adjusted " + ctx.stats.adjusted() + "; bad " + ctx.bad.count()
                    + " " + ctx.bad.first() + "; verbs " + ctx.verbs.names() + "; packets " + r.lines());
        }
        return out;
    }

    /** Replayed as captured, and {@code --scale 4}: four times each command, the capture's keys in each of s1: … s4:. */
    @Test
    void redisClientsCapturedOnLoopbackOverIpv6ReplayExactlyAndScaled(RedisProcess target, RedisProcess scaled)
            throws Exception {
        Session s = lo();
        Replays.Run run = replay(s.file(), s.redis(), target.address(), 0);
        assertEquals(s.redisCommands(), clientCommands(target), run.out());
        assertTrue(run.out().contains("Replay: Note: pcap, Ethernet"), run.out());
        assertTrue(run.out().contains("connections to " + s.redis()), run.out());

        Replays.Run four = Replays.run(ReplayOptions.builder(s.file()).server(scaled.address()).speed(0).live(false)
                .captureServers(List.of(s.redis())).scale(4).timeout(Duration.ofSeconds(20)).build());
        Map<String, Long> times4 = new TreeMap<>();
        s.redisCommands().forEach((verb, n) -> times4.put(verb, 4 * n));
        assertEquals(times4, clientCommands(scaled), four.out());
        Set<String> expectedKeys = new TreeSet<>();
        for (int k = 1; k <= 4; k++) {
            for (String key : s.redisKeys()) {
                expectedKeys.add("s" + k + ":" + key);
            }
        }
        assertEquals(expectedKeys, keys(scaled), four.out());
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

    /** A binary protocol GetK of {@code key}, as ISO-8859-1 text. */
    private static String binaryGet(String key) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(24 + key.length());
        b.put((byte) 0x80).put((byte) 0x0c).putShort((short) key.length()).put((byte) 0).put((byte) 0).putShort((short) 0)
                .putInt(key.length()).putInt(0).putLong(0).put(key.getBytes(StandardCharsets.ISO_8859_1));
        return new String(b.array(), StandardCharsets.ISO_8859_1);
    }

    /** Text, binary and meta clients on one port: replayed over the text protocol, meta commands as the text ones. */
    @Test
    void textBinaryAndMetaMemcacheClientsOnOnePortCapturedOnAnyOverIpv6ReplayExactly(MemcachedProcess target)
            throws Exception {
        Session s = any();
        Replays.Run run = replay(s.file(), s.memcached(), target.address(), 0);
        assertEquals(s.memcachedCounters(), counters(target), run.out());
        assertEquals("memcache", run.result().protocol(), "text, binary and meta clients: replayed over text");
        assertEquals(0, run.result().badLines(), run.out());
        assertTrue(run.out().contains("noreply dropped"), run.out());
        assertTrue(run.out().contains("quiet flag dropped"), run.out());
    }

    @Test
    void binaryMemcacheClientsCapturedOnLoopbackOverIpv4ReplayOverTheBinaryProtocol(MemcachedProcess target)
            throws Exception {
        Session s = lo();
        Replays.Run run = replay(s.file(), s.memcached(), target.address(), 0);
        assertEquals(s.memcachedCounters(), counters(target), run.out());
        assertEquals("memcache-binary", run.result().protocol());
        assertEquals(run.line("Hit rate: ").replaceAll("original ([0-9.]+) %, replay ([0-9.]+) %.*", "$1 $2"),
                run.line("Hit rate: ").replaceAll("original ([0-9.]+) %, replay ([0-9.]+) %.*", "$1 $1"), run.out());
    }

    /** At 1x the replay keeps the capture's timing: it takes the capture's time within 1 %. */
    @Test
    @Tag("timing")
    void atOneTimesTheReplayTakesTheCapturesTimeWithinOnePercent(RedisProcess target) throws Exception {
        Session s = any(); // its redis clients paced 35 ms a round: about 3 s
        Replays.Run run = replay(s.file(), s.redis(), target.address(), 1);
        double original = run.result().originalSeconds();
        double replayed = run.result().replaySeconds();
        assertTrue(original > 2, run.out());
        assertTrue(Math.abs(replayed - original) <= 0.01 * original,
                "original " + original + " s, replay " + replayed + " s: " + run.out());
        assertEquals(s.redisCommands(), clientCommands(target), run.out());
    }
}
