package io.fluxperf.engine.trust;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.config.ConnectionOptions;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.CommandTemplate;
import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.engine.target.TargetServer;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.NginxProcess;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.testkit.RedisProcess;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The latency floor against real servers of each protocol, and what it says when it cannot measure. */
@ExtendWith(RealServers.class)
class FloorProbeTest {
    @TempDir
    Path dir;

    private static RunConfig config(String protocol, WorkloadConfig workload) {
        return RunConfig.builder().protocol(protocol).threads(1).connections(1).timeout(Duration.ofSeconds(2))
                .workload(workload).build();
    }

    private static LatencyFloor floor(String protocol, WorkloadConfig workload, java.net.SocketAddress address) {
        Protocol p = Protocols.find(protocol);
        try (FloorProbe probe = FloorProbe.start(p, config(protocol, workload), address)) {
            return probe.measure();
        }
    }

    private static void assertMeasured(LatencyFloor f, String noOp) {
        assertTrue(f.measured(), f.reason());
        assertEquals(noOp, f.noOp());
        assertEquals(FloorProbe.ROUND_TRIPS, f.roundTrips());
        assertTrue(f.min() > 0 && f.min() <= f.p50() && f.p50() <= f.p99(), f.toString());
        assertTrue(f.line().startsWith("Floor: p50 "), f.line());
    }

    @Test
    void memcachedAnswersVersion(MemcachedProcess memcached) {
        LatencyFloor f = floor("memcache", WorkloadConfig.of(Command.GET), new InetSocketAddress("127.0.0.1", memcached.port()));
        assertMeasured(f, "version");
        assertTrue(f.line().endsWith(" (idle round trip: 300 x version)"), f.line());
    }

    @Test
    void memcachedOnAUnixSocket() {
        try (MemcachedProcess memcached = MemcachedProcess.startUnix(dir.resolve("mc.sock"))) {
            assertMeasured(floor("memcache", WorkloadConfig.of(Command.GET),
                    new io.netty.channel.unix.DomainSocketAddress(memcached.socket().toString())), "version");
        }
    }

    @Test
    void memcachedsBinaryProtocolAnswersVersion(MemcachedProcess memcached) {
        assertMeasured(floor("memcache-binary", WorkloadConfig.of(Command.GET),
                new InetSocketAddress("127.0.0.1", memcached.port())), "version (binary)");
    }

    @Test
    void redisAnswersPing(RedisProcess redis) {
        long before = redis.commandstats().getOrDefault("ping", 0L);
        assertMeasured(floor("redis", WorkloadConfig.of(Command.GET), new InetSocketAddress("127.0.0.1", redis.port())), "PING");
        assertEquals(before + FloorProbe.WARM_ROUND_TRIPS + FloorProbe.ROUND_TRIPS, redis.commandstats().get("ping"),
                "every round trip reached redis as a PING");
    }

    @Test
    void nginxAnswersAGetOfTheRunsPath(NginxProcess nginx) {
        WorkloadConfig get = WorkloadConfig.of(Command.GET, CommandTemplate.parse("/small.txt?floor=__key__"));
        assertMeasured(floor("http", get, new InetSocketAddress("127.0.0.1", nginx.port())), "GET /small.txt?floor=0");
        assertEquals(FloorProbe.WARM_ROUND_TRIPS + FloorProbe.ROUND_TRIPS,
                nginx.awaitAccessLog("/small.txt?floor=0", FloorProbe.WARM_ROUND_TRIPS + FloorProbe.ROUND_TRIPS, 10_000).size());
    }

    @Test
    void everyEmbeddedTargetAnswersItsNoOp() throws Exception {
        for (String protocol : new String[] {"memcache", "memcache-binary", "redis", "http"}) {
            Protocol p = Protocols.find(protocol);
            try (TargetServer target = p.target().start(TargetOptions.defaults())) {
                LatencyFloor f = floor(protocol, WorkloadConfig.of(Command.GET), target.address());
                assertTrue(f.measured(), protocol + ": " + f.reason());
            }
        }
    }

    /** A server of another kind answers the no-op with an error or with its own protocol: no floor, and whose reply it was. */
    @Test
    void aServerOfAnotherKindIsNoFloorAndNamesTheProtocolToTry(RedisProcess redis, MemcachedProcess memcached,
                                                              NginxProcess nginx) {
        WorkloadConfig get = WorkloadConfig.of(Command.GET);
        LatencyFloor f = floor("memcache", get, new InetSocketAddress("127.0.0.1", redis.port()));
        assertFalse(f.measured(), f.line());
        assertTrue(f.line().startsWith("Floor: not measured (the server answered version with '-ERR unknown command"), f.line());
        assertTrue(f.line().endsWith(": does the server speak memcache? That is how redis answers: try --protocol redis)"),
                f.line());
        assertEquals(1, f.line().lines().count());

        f = floor("redis", get, new InetSocketAddress("127.0.0.1", memcached.port()));
        assertFalse(f.measured(), f.line());
        assertEquals("Floor: not measured (the server answered PING with 'ERROR': does the server speak redis?"
                + " That is how memcache answers: try --protocol memcache)", f.line());

        f = floor("memcache", get, new InetSocketAddress("127.0.0.1", nginx.port()));
        assertFalse(f.measured(), f.line());
        assertTrue(f.line().endsWith(": does the server speak memcache? That is how http answers: try --protocol http)"),
                f.line());

        // the right kind of server with an error of its own: said, without a question
        f = floor("http", WorkloadConfig.of(Command.GET, CommandTemplate.parse("/no-such-file?k=__key__")),
                new InetSocketAddress("127.0.0.1", nginx.port()));
        assertEquals("Floor: not measured (the server answered GET /no-such-file?k=0 with status 404)", f.line());
    }

    /** Bytes of no protocol fluxperf speaks: no floor, and the question without a protocol to try. */
    @Test
    void garbageRepliesAreNoFloor() throws Exception {
        try (ServerSocket garbage = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            Thread t = new Thread(() -> {
                try (Socket s = garbage.accept()) {
                    byte[] in = new byte[4096];
                    while (s.getInputStream().read(in) > 0) {
                        s.getOutputStream().write(new byte[] {0, (byte) 0xff, 'G', 'A', 'R', 'B', 'A', 'G', 'E', '\r', '\n'});
                    }
                } catch (IOException ignored) {
                    // the probe's connection went away
                }
            });
            t.start();
            LatencyFloor f = floor("memcache", WorkloadConfig.of(Command.GET),
                    new InetSocketAddress("127.0.0.1", garbage.getLocalPort()));
            assertFalse(f.measured());
            assertEquals("Floor: not measured (the server answered version with '\\x00\u00ffGARBAGE': does the server speak"
                    + " memcache?)", f.line());
        }
    }

    @Test
    void whatCannotBeMeasuredSaysWhy(MemcachedProcess memcached) throws IOException {
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", memcached.port());
        Protocol memcache = Protocols.find("memcache");
        RunConfig tls = config("memcache", WorkloadConfig.of(Command.GET)).toBuilder()
                .connection(ConnectionOptions.builder().tls(true).build()).build();
        try (FloorProbe probe = FloorProbe.start(memcache, tls, address)) {
            assertEquals("Floor: not measured (over TLS)", probe.measure().line());
        }
        try (FloorProbe probe = FloorProbe.start(memcache, config("memcache", WorkloadConfig.of(Command.GET)), null)) {
            assertEquals("Floor: not measured (several servers)", probe.measure().line());
        }
        // a server that takes the connection and closes it at once
        try (ServerSocket closing = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            Thread t = new Thread(() -> {
                try (Socket s = closing.accept()) {
                    s.getInputStream().read();
                } catch (IOException ignored) {
                    // the probe's connection went away first
                }
            });
            t.start();
            LatencyFloor f = floor("memcache", WorkloadConfig.of(Command.GET),
                    new InetSocketAddress("127.0.0.1", closing.getLocalPort()));
            assertFalse(f.measured());
            assertEquals("Floor: not measured (the server closed the connection after version)", f.line());
        }
    }
}
