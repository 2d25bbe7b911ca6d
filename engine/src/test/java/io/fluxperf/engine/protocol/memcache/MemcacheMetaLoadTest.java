package io.fluxperf.engine.protocol.memcache;

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
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * memcache-meta end to end, against a real memcached 1.6 and the embedded target: the codec's
 * requests get the outcomes memcached gives, quiet batches included; and {@link LoadRun} with
 * {@code memcache-meta}, quiet or not, is counted by the server's own {@code stats} exactly as it
 * counts itself: gets (hits and misses, one key and quiet pipelines of several), sets, deletes,
 * incr and decr (a key that {@code ma … N0} creates counting in neither incr_hits nor incr_misses).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(RealServers.class)
class MemcacheMetaLoadTest {
    @RealServer
    private MemcachedProcess memcached;
    private TargetServer embedded;

    @BeforeAll
    void start() {
        embedded = Protocols.startTarget("memcache-meta", TargetOptions.defaults());
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
            byte[] b = k.getBytes(StandardCharsets.ISO_8859_1);
            r.addKey(b, 0, b.length);
        }
        return r;
    }

    private static Request write(Command c, String key, String value) {
        byte[] v = value.getBytes(StandardCharsets.US_ASCII);
        return request(c, key).value(v, 0, v.length);
    }

    /** The quiet batch of MemcacheMetaCodecTest, whose replies are written there as memcached gives them. */
    @ParameterizedTest
    @CsvSource({"memcached,''", "memcached,q", "memcached,qb", "memcached,O", "embedded,q", "embedded,qbO", "embedded,''"})
    void everyCommandGetsTheOutcomesMemcachedGives(String target, String flags) throws Exception {
        text(port(target), "flush_all");
        List<Request> requests = List.of(
                write(Command.SET, "a", "hello"),
                request(Command.GET, "a"),
                request(Command.GET, "missing"),
                write(Command.ADD, "a", "hello"),
                request(Command.DELETE, "missing"),
                request(Command.EXISTS, "a"),
                request(Command.INCR, "n").numeric(1),
                request(Command.GET, "x", "a"),
                request(Command.GETS, "a"),
                write(Command.CAS, "a", "y").numeric(999_999_999_999L), // a wrong cas
                write(Command.APPEND, "a", " world"),
                write(Command.PREPEND, "missing", "x"),
                write(Command.REPLACE, "missing", "x"),
                request(Command.TOUCH, "a").ttlSeconds(100),
                request(Command.TOUCH, "missing").ttlSeconds(100),
                write(Command.SET, "n", "41"),
                request(Command.INCR, "n").numeric(1),
                request(Command.DECR, "n").numeric(50),
                request(Command.INCR, "a").numeric(1),
                request(Command.DELETE, "a"),
                request(Command.EXISTS, "a"),
                request(Command.FLUSH),
                request(Command.GET, "n"));
        List<Outcome> expected = List.of(Outcome.OK, Outcome.OK, Outcome.MISS, Outcome.MISS, Outcome.MISS, Outcome.OK,
                Outcome.MISS, Outcome.MISS, Outcome.OK, Outcome.MISS, Outcome.OK, Outcome.MISS, Outcome.MISS, Outcome.OK,
                Outcome.MISS, Outcome.OK, Outcome.OK, Outcome.OK, Outcome.ERROR, Outcome.OK, Outcome.MISS, Outcome.OK,
                Outcome.MISS);
        String[] options = flags.isEmpty() ? new String[0] : new String[] {"meta-flags", flags};
        // one batch; then one request a batch on a fresh store
        List<Outcome> inOneBatch = new ArrayList<>(expected);
        if (flags.contains("q")) {
            // an error line carries no token: it ends the oldest request still waiting that could have given
            // it, here the incr two requests before the one that failed, whose success the server left out;
            // the counts stay exact, only which incr got the error is the protocol's guess
            inOneBatch.set(16, Outcome.ERROR);
            inOneBatch.set(18, Outcome.OK);
        }
        assertEquals(inOneBatch, exchange(port(target), options, List.of(requests)));
        text(port(target), "flush_all");
        List<List<Request>> single = requests.stream().map(List::of).toList();
        assertEquals(expected, exchange(port(target), options, single));
    }

    /** Sends each batch in one write, ended as the engine ends it, and decodes the replies as the engine does. */
    private static List<Outcome> exchange(int port, String[] options, List<List<Request>> batches) throws IOException {
        ProtocolCodec codec = Protocols.find("memcache-meta").codecs(ProtocolOptions.of(options), null).newCodec();
        List<Outcome> outcomes = new ArrayList<>();
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(5000);
            InputStream in = s.getInputStream();
            ByteBuf replies = Unpooled.buffer();
            byte[] chunk = new byte[4096];
            for (List<Request> batch : batches) {
                ByteBuf out = Unpooled.buffer();
                for (Request r : batch) {
                    codec.encode(r, out);
                }
                codec.writeBatchEnd(out);
                byte[] bytes = new byte[out.readableBytes()];
                out.readBytes(bytes);
                s.getOutputStream().write(bytes);
                int next = 0;
                while (next < batch.size()) {
                    int result;
                    try {
                        result = codec.decode(replies, batch.get(next));
                    } catch (Exception e) {
                        throw new AssertionError("reply to " + batch.get(next) + ": " + e.getMessage(), e);
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
                assertEquals(0, replies.readableBytes(), "every reply consumed by its request");
            }
        }
        return outcomes;
    }

    /** Against memcached only: MetaConformanceTest holds the embedded target to memcached's counts. */
    @ParameterizedTest
    @ValueSource(strings = {"", "qO"})
    void loadRunIsCountedByMemcachedsOwnStats(String flags) throws IOException {
        String target = "memcached";
        int port = port(target);
        String[] options = flags.isEmpty() ? new String[0] : new String[] {"meta-flags", flags};
        String what = target + " with meta-flags '" + flags + "': ";
        text(port, "flush_all");

        // sets of keys 0-299, read back byte for byte
        KeyspaceConfig written = new KeyspaceConfig(300, 12, KeyDistribution.SEQUENTIAL, 1);
        WorkloadConfig set = WorkloadConfig.of(Command.SET).withBytes(ValueSize.fixed(100)).withKeyspace(written);
        Map<String, Long> before = stats(port);
        OutcomeCounts o = run(target, 900, options, set);
        Map<String, Long> after = stats(port);
        assertEquals(900, o.ok(), what + o);
        assertEquals(900, delta(after, before, "cmd_set"), what + "cmd_set");
        ValuePattern pattern = GeneratedLoad.patternFor(config(900, options, set));
        for (long key : new long[] {0, 1, 299}) {
            assertArrayEquals(pattern.expected(key, 100), textGet(port, String.format("%012d", key)), what + "value of " + key);
        }

        // gets over keys 0-599: half are there; quiet mode leaves every miss out
        WorkloadConfig get = WorkloadConfig.of(Command.GET).withKeyspace(new KeyspaceConfig(600, 12, KeyDistribution.UNIFORM, 1));
        before = stats(port);
        o = run(target, 3000, options, get);
        after = stats(port);
        assertEquals(3000, o.requests(), what + o);
        assertEquals(delta(after, before, "get_hits"), o.ok(), what + "get_hits");
        assertEquals(delta(after, before, "get_misses"), o.miss(), what + "get_misses");
        assertEquals(3000, delta(after, before, "cmd_get"), what + "cmd_get");

        // gets of four keys each: quiet pipelines of mg with their own mn
        WorkloadConfig multi = WorkloadConfig.of(Command.GETS).withKeysPerRequest(4)
                .withKeyspace(new KeyspaceConfig(600, 12, KeyDistribution.UNIFORM, 1));
        before = stats(port);
        o = run(target, 1000, options, multi);
        after = stats(port);
        assertEquals(1000, o.ok() + o.miss(), what + o);
        assertEquals(4000, delta(after, before, "cmd_get"), what + "cmd_get");
        assertEquals(4000, delta(after, before, "get_hits") + delta(after, before, "get_misses"), what + "hits and misses");

        // deletes over keys 0-599: the first of each of 0-299 hits
        WorkloadConfig delete = WorkloadConfig.of(Command.DELETE).withKeyspace(new KeyspaceConfig(600, 12, KeyDistribution.UNIFORM, 1));
        before = stats(port);
        o = run(target, 2000, options, delete);
        after = stats(port);
        assertEquals(delta(after, before, "delete_hits"), o.ok(), what + "delete_hits");
        assertEquals(delta(after, before, "delete_misses"), o.miss(), what + "delete_misses");
        assertEquals(2000, o.requests());

        // decr of keys that are not there: every one misses
        text(port, "flush_all");
        WorkloadConfig decr = WorkloadConfig.of(Command.DECR).withKeyspace(new KeyspaceConfig(50, 12, KeyDistribution.SEQUENTIAL, 1));
        before = stats(port);
        o = run(target, 500, options, decr);
        after = stats(port);
        assertEquals(500, o.miss(), what + o);
        assertEquals(500, delta(after, before, "decr_misses"), what + "decr_misses");

        // incr that creates missing keys (N0): 100 creations count nowhere, the other 900 are hits
        String[] create = {"meta-flags", flags + "N"};
        WorkloadConfig incr = WorkloadConfig.of(Command.INCR).withKeyspace(new KeyspaceConfig(100, 12, KeyDistribution.SEQUENTIAL, 1));
        before = stats(port);
        o = run(target, 1000, create, incr);
        after = stats(port);
        assertEquals(1000, o.ok(), what + o);
        assertEquals(900, delta(after, before, "incr_hits"), what + "incr_hits");
        assertEquals(0, delta(after, before, "incr_misses"), what + "incr_misses");
        assertEquals("9", new String(textGet(port, String.format("%012d", 42)), StandardCharsets.US_ASCII).trim(),
                what + "created at 0, then incremented 9 times");
        before = stats(port);
        o = run(target, 400, options, decr.withKeyspace(new KeyspaceConfig(100, 12, KeyDistribution.SEQUENTIAL, 1)));
        after = stats(port);
        assertEquals(400, o.ok(), what + o);
        assertEquals(400, delta(after, before, "decr_hits"), what + "decr_hits");
    }

    private OutcomeCounts run(String target, long requests, String[] options, WorkloadConfig workload) {
        RunConfig config = config(requests, options, workload);
        RunResult result = new LoadRun(config, new RunListener() { }).execute(
                new InetSocketAddress("127.0.0.1", port(target)), target);
        OutcomeCounts o = result.total().total().outcomes();
        assertEquals(requests, o.requests(), "requests = the sum of outcomes: " + o);
        assertEquals(0, o.error() + o.timeout() + o.closed(), "no request failed: " + o);
        return o;
    }

    private static RunConfig config(long requests, String[] options, WorkloadConfig workload) {
        return RunConfig.builder().protocol("memcache-meta").protocolOptions(ProtocolOptions.of(options)).threads(1)
                .connections(4).pipeline(8).duration(Duration.ofSeconds(10)).windows(1).timeout(Duration.ofSeconds(2))
                .tcpNoDelay(false).requests(requests).seed(7).workloads(List.of(workload)).build();
    }

    private static long delta(Map<String, Long> after, Map<String, Long> before, String name) {
        return after.get(name) - before.get(name);
    }

    private static List<String> text(int port, String line) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(5000);
            s.getOutputStream().write((line + "\r\n").getBytes(StandardCharsets.US_ASCII));
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
}
