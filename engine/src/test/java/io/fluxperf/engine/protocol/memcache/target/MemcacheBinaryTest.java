package io.fluxperf.engine.protocol.memcache.target;

import io.fluxperf.engine.config.KeyDistribution;
import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.ValueSize;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.load.LoadRun;
import io.fluxperf.engine.load.RunListener;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.protocol.ProtocolCodec;
import io.fluxperf.engine.protocol.ProtocolOptions;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.engine.target.TargetServer;
import io.fluxperf.engine.workload.GeneratedLoad;
import io.fluxperf.engine.workload.ValuePattern;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServer;
import io.fluxperf.testkit.RealServers;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The memcache binary protocol end to end, against a real memcached and against the embedded
 * memcache target (which tells binary from text by a connection's first byte): every command
 * encoded by fluxperf's codec must get the same outcomes from both, and {@link LoadRun} with
 * {@code memcache-binary} must be counted by the server's own {@code stats} exactly as it counts
 * itself, values read back byte for byte (over the text protocol, so the two meet in one store).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(RealServers.class)
class MemcacheBinaryTest {
    @RealServer
    private MemcachedProcess memcached;
    private TargetServer embedded;

    @BeforeAll
    void start() {
        embedded = Protocols.startTarget("memcache-binary", TargetOptions.defaults());
    }

    @AfterAll
    void stop() {
        if (embedded != null) {
            embedded.close();
        }
    }

    private int port(String target) {
        return target.equals("memcached") ? memcached.port() : embedded.address().getPort();
    }

    private static Request request(Command c, String... keys) {
        Request r = new Request().reset().command(c, 0);
        for (String k : keys) {
            byte[] b = k.getBytes(StandardCharsets.US_ASCII);
            r.addKey(b, 0, b.length);
        }
        return r;
    }

    private static Request write(Command c, String key, String value) {
        byte[] v = value.getBytes(StandardCharsets.US_ASCII);
        return request(c, key).value(v, 0, v.length);
    }

    @ParameterizedTest
    @ValueSource(strings = {"memcached", "embedded"})
    void everyCommandGetsTheOutcomesMemcachedGives(String target) throws Exception {
        text(port(target), "flush_all");
        String p = "bin-" + target + "-";
        List<Request> requests = List.of(
                request(Command.GET, p + "a"),
                write(Command.SET, p + "a", "hello"),
                request(Command.GET, p + "a"),
                request(Command.GETS, p + "a"),
                write(Command.ADD, p + "a", "x"),
                write(Command.ADD, p + "b", "7"),
                write(Command.REPLACE, p + "c", "x"),
                write(Command.REPLACE, p + "b", "8"),
                write(Command.APPEND, p + "a", " world"),
                write(Command.PREPEND, p + "a", ">"),
                write(Command.APPEND, p + "c", "x"),
                request(Command.GET, p + "a", p + "b"),
                request(Command.GET, p + "a", p + "c", p + "b"),
                request(Command.GETS, p + "c", p + "d"),
                write(Command.CAS, p + "a", "y").numeric(1), // a wrong cas
                write(Command.CAS, p + "c", "y").numeric(1), // no such key
                request(Command.INCR, p + "b").numeric(5),
                request(Command.DECR, p + "b").numeric(100),
                request(Command.INCR, p + "c").numeric(1),
                request(Command.INCR, p + "a").numeric(1), // not a number
                request(Command.TOUCH, p + "b").ttlSeconds(100),
                request(Command.TOUCH, p + "c").ttlSeconds(100),
                request(Command.DELETE, p + "b"),
                request(Command.DELETE, p + "b"),
                request(Command.FLUSH),
                request(Command.GET, p + "a"));
        List<Outcome> expected = List.of(Outcome.MISS, Outcome.OK, Outcome.OK, Outcome.OK, Outcome.MISS, Outcome.OK,
                Outcome.MISS, Outcome.OK, Outcome.OK, Outcome.OK, Outcome.MISS, Outcome.OK, Outcome.MISS, Outcome.MISS,
                Outcome.MISS, Outcome.MISS, Outcome.OK, Outcome.OK, Outcome.MISS, Outcome.ERROR, Outcome.OK, Outcome.MISS,
                Outcome.OK, Outcome.MISS, Outcome.OK, Outcome.MISS);
        // one at a time, then all pipelined in one write
        List<Outcome> single = new ArrayList<>();
        for (Request r : requests) {
            if (r.command() == Command.FLUSH) {
                break;
            }
            single.addAll(exchange(port(target), List.of(r)));
            if (r == requests.get(9)) {
                assertEquals(">hello world", new String(textGet(port(target), p + "a"), StandardCharsets.US_ASCII));
            }
        }
        assertEquals(expected.subList(0, single.size()), single);
        text(port(target), "flush_all");
        assertEquals(expected, exchange(port(target), requests));
        assertNull(textGet(port(target), p + "a"));
    }

    /** Sends the requests on one connection in one write and decodes the replies as the engine does. */
    private static List<Outcome> exchange(int port, List<Request> requests) throws IOException {
        ProtocolCodec codec = Protocols.find("memcache-binary").codecs(ProtocolOptions.none(), null).newCodec();
        ByteBuf out = Unpooled.buffer();
        for (Request r : requests) {
            codec.encode(r, out);
        }
        List<Outcome> outcomes = new ArrayList<>();
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(5000);
            byte[] bytes = new byte[out.readableBytes()];
            out.readBytes(bytes);
            s.getOutputStream().write(bytes);
            InputStream in = s.getInputStream();
            ByteBuf replies = Unpooled.buffer();
            byte[] chunk = new byte[4096];
            int next = 0;
            while (next < requests.size()) {
                int result;
                try {
                    result = codec.decode(replies, requests.get(next));
                } catch (Exception e) {
                    throw new AssertionError("reply to " + requests.get(next) + ": " + e.getMessage(), e);
                }
                if (result == ProtocolCodec.NEED_MORE) {
                    int n = in.read(chunk);
                    if (n < 0) {
                        throw new IOException("closed after " + outcomes);
                    }
                    replies.writeBytes(chunk, 0, n);
                    continue;
                }
                outcomes.add(Outcome.of(result));
                next++;
            }
            assertEquals(0, replies.readableBytes());
        }
        return outcomes;
    }

    private static List<String> text(int port, String line) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(5000);
            OutputStream out = s.getOutputStream();
            out.write((line + "\r\n").getBytes(StandardCharsets.US_ASCII));
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.ISO_8859_1));
            List<String> reply = new ArrayList<>();
            String l;
            while ((l = in.readLine()) != null) {
                reply.add(l);
                if (l.equals("END") || l.equals("OK") || l.contains("ERROR")) {
                    break;
                }
            }
            return reply;
        }
    }

    private static byte[] textGet(int port, String key) throws IOException {
        List<String> reply = text(port, "get " + key);
        return reply.size() >= 3 && reply.get(0).startsWith("VALUE ") ? reply.get(1).getBytes(StandardCharsets.ISO_8859_1) : null;
    }

    private static Map<String, Long> stats(int port) throws IOException {
        Map<String, Long> stats = new LinkedHashMap<>();
        for (String line : text(port, "stats")) {
            String[] parts = line.split(" ");
            if (parts.length == 3 && parts[0].equals("STAT") && parts[2].matches("\\d+")) {
                stats.put(parts[1], Long.parseLong(parts[2]));
            }
        }
        return stats;
    }

    private RunResult run(String target, long requests, WorkloadConfig... workloads) {
        RunConfig config = config(requests, workloads);
        return new LoadRun(config, new RunListener() { }).execute(
                new InetSocketAddress("127.0.0.1", port(target)), target);
    }

    private static RunConfig config(long requests, WorkloadConfig... workloads) {
        return RunConfig.builder().protocol("memcache-binary").threads(1).connections(4).pipeline(4)
                .duration(Duration.ofSeconds(10)).windows(1).timeout(Duration.ofSeconds(1)).tcpNoDelay(false)
                .requests(requests).seed(7).workloads(List.of(workloads)).build();
    }

    /** Counters since {@code before}. */
    private static long delta(Map<String, Long> after, Map<String, Long> before, String name) {
        return after.get(name) - before.get(name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"memcached", "embedded"})
    void loadRunIsCountedByTheServersOwnStats(String target) throws IOException {
        int port = port(target);
        // sets, read back byte for byte
        WorkloadConfig set = WorkloadConfig.of(Command.SET).withBytes(ValueSize.fixed(100))
                .withKeyspace(new KeyspaceConfig(500, 12, KeyDistribution.SEQUENTIAL, 1));
        Map<String, Long> before = stats(port);
        RunResult sets = run(target, 1000, set);
        assertEquals(1000, sets.total().total().outcomes().ok());
        Map<String, Long> after = stats(port);
        assertEquals(1000, delta(after, before, "cmd_set"));
        ValuePattern pattern = GeneratedLoad.patternFor(config(1000, set));
        for (long key : new long[] {0, 1, 17, 250, 251, 499}) {
            assertArrayEquals(pattern.expected(key, 100), textGet(port, String.format("%012d", key)), "value of key " + key);
        }

        // gets that all hit (preloaded, values checked by the codec)
        WorkloadConfig hit = WorkloadConfig.of(Command.GET).withHit(true).withKeyspace(KeyspaceConfig.defaults().withCount(300));
        before = stats(port);
        RunResult hits = run(target, 3000, hit);
        OutcomeCounts o = hits.total().total().outcomes();
        assertEquals(3000, o.requests());
        assertEquals(3000, o.ok(), "every get hits");
        after = stats(port);
        assertEquals(3000, delta(after, before, "get_hits"));
        assertEquals(3000, delta(after, before, "cmd_get"));
        assertEquals(300, delta(after, before, "cmd_set"), "the preload");

        // multi-key gets after a flush: GetKQ runs, all miss
        WorkloadConfig miss = WorkloadConfig.of(Command.GET).withFlush(true).withKeysPerRequest(5)
                .withKeyspace(KeyspaceConfig.defaults().withCount(50));
        before = stats(port);
        RunResult misses = run(target, 2000, miss);
        o = misses.total().total().outcomes();
        assertEquals(2000, o.requests());
        assertEquals(2000, o.miss());
        after = stats(port);
        assertEquals(10_000, delta(after, before, "get_misses"));
        assertEquals(10_000, delta(after, before, "cmd_get"));
        assertEquals(0, delta(after, before, "get_hits"));

        // multi-key gets that all hit
        WorkloadConfig multiHit = WorkloadConfig.of(Command.GETS).withHit(true).withKeysPerRequest(4)
                .withKeyspace(KeyspaceConfig.defaults().withCount(100)).withBytes(ValueSize.fixed(2000));
        before = stats(port);
        RunResult multi = run(target, 1000, multiHit);
        o = multi.total().total().outcomes();
        assertEquals(1000, o.ok(), "every multi-key get hits: " + o);
        after = stats(port);
        assertEquals(4000, delta(after, before, "get_hits"));
        assertTrue(o.error() == 0 && o.timeout() == 0 && o.closed() == 0);
    }
}
