package io.fluxperf.engine.transport;

import io.fluxperf.engine.config.ConfigResolver;
import io.fluxperf.engine.config.RunSettings;
import io.fluxperf.engine.load.LoadRun;
import io.fluxperf.engine.load.RunListener;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.engine.target.TargetServer;
import io.fluxperf.testkit.FreePorts;
import io.fluxperf.testkit.MemcachedProcess;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The UDP client against memcached's own UDP listener ({@code -U}), with values large enough that
 * replies span several datagrams and multi-key gets (which memcached 1.6 sends as one group of
 * datagrams per VALUE), and against the embedded target's UDP listener; counts checked with the
 * servers' own statistics.
 */
class MemcachedUdpTest {

    private static RunResult run(String server, int port, String method, int bytes, int keysPerRequest, long requests) {
        RunSettings s = new RunSettings();
        s.server = server;
        s.udp = true;
        s.method = method;
        s.bytes = Integer.toString(bytes);
        s.keysPerRequest = method.equals("get") ? keysPerRequest : null;
        s.hit = method.equals("get");
        s.keyspace = 300L;
        s.connections = 4;
        s.pipeline = 2;
        s.requests = requests;
        s.duration = Duration.ofSeconds(20);
        s.timeout = Duration.ofSeconds(2);
        return new LoadRun(ConfigResolver.resolve(s.toFlags()), new RunListener() { })
                .execute(new InetSocketAddress("127.0.0.1", port), server);
    }

    @Test
    void largeValuesAndMultiKeyGetsOverMemcachedUdpAgreeWithItsStats() {
        int port = FreePorts.tcpAndUdp();
        try (MemcachedProcess memcached = MemcachedProcess.start(port, "-U", Integer.toString(port))) {
            RunResult result = run("127.0.0.1:" + port, port, "get", 3000, 3, 1000);
            OutcomeCounts o = result.total().total().outcomes();
            assertEquals(1000, o.requests());
            assertEquals(1000, o.ok(), "every multi-get of 3 x 3000 bytes hits: " + o);
            assertEquals(300, result.preloadedKeys());
            Map<String, Long> stats = memcached.stats();
            assertEquals(300, stats.get("cmd_set"), "the preload, over UDP");
            assertEquals(3000, stats.get("cmd_get"), "memcached counts each key of a multi-get");
            assertEquals(3000, stats.get("get_hits"));
        }
    }

    @Test
    void embeddedTargetUdpListenerAnswersSetsAndGets() {
        try (TargetServer target = Protocols.startTarget("memcache", TargetOptions.builder().udpPort(0).build())) {
            InetSocketAddress udp = target.udpAddress();
            String server = "127.0.0.1:" + udp.getPort();
            RunResult sets = run(server, udp.getPort(), "set", 2000, 1, 500);
            assertEquals(500, sets.total().total().outcomes().ok());
            RunResult gets = run(server, udp.getPort(), "get", 2000, 4, 500);
            assertEquals(500, gets.total().total().outcomes().ok(), gets.total().total().outcomes().toString());
            assertEquals(500 + 300, target.stats().command("set"), "the sets and the preload's");
            assertEquals(500, target.stats().command("get"));
            assertEquals(2000, target.stats().getHits());
        }
    }
}
