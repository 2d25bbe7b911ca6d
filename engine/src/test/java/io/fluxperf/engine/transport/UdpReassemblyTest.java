package io.fluxperf.engine.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.config.ConfigResolver;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.RunSettings;
import io.fluxperf.engine.load.LoadRun;
import io.fluxperf.engine.load.RunListener;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.RunResult;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * The UDP client's frame handling against a server that misbehaves on purpose: replies cut into
 * many datagrams sent backwards, replies overtaking each other, memcached 1.6's numbering that
 * restarts for every VALUE, lost datagrams (their requests end as timeouts), late and duplicated
 * datagrams (dropped and counted as protocol errors).
 */
class UdpReassemblyTest {

    private record Outcome(OutcomeCounts counts, long protocolErrors) {
    }

    private static Outcome run(ScriptedUdpServer server, int connections, int pipeline, int keysPerRequest,
                               long requests, String rate, Duration timeout) {
        RunSettings s = new RunSettings();
        s.server = "127.0.0.1:" + server.port();
        s.udp = true;
        s.method = "get";
        s.keysPerRequest = keysPerRequest;
        s.connections = connections;
        s.pipeline = pipeline;
        s.requests = requests;
        s.rate = rate;
        s.duration = Duration.ofSeconds(20);
        s.timeout = timeout;
        RunConfig config = ConfigResolver.resolve(s.toFlags());
        LoadRun run = new LoadRun(config, new RunListener() { });
        RunResult result = run.execute(new InetSocketAddress("127.0.0.1", server.port()), "scripted UDP server");
        return new Outcome(result.total().total().outcomes(), run.errors().protocolErrors());
    }

    @Test
    void repliesCutIntoManyDatagramsSentBackwardsAndOutOfRequestOrderAreReassembled() throws Exception {
        // 3 keys x 1000 bytes in 300-byte datagrams: 11 datagrams per reply, last one first
        try (ScriptedUdpServer server = new ScriptedUdpServer(1000, 300, false, true, (n, datagrams, later) -> {
            List<byte[]> reversed = new ArrayList<>(datagrams);
            Collections.reverse(reversed);
            return reversed;
        })) {
            Outcome o = run(server, 2, 4, 3, 400, null, Duration.ofSeconds(2));
            assertEquals(400, o.counts().requests());
            assertEquals(400, o.counts().ok(), "every reply reassembled: " + o.counts());
            assertEquals(0, o.protocolErrors());
        }
    }

    @Test
    void memcached16NumberingThatRestartsForEveryValueIsFollowed() throws Exception {
        // each VALUE (and the END) is its own group numbered from 0, as memcached 1.6 sends a multi-key get
        try (ScriptedUdpServer server = new ScriptedUdpServer(2500, 1392, true, false, (n, datagrams, later) -> datagrams)) {
            Outcome o = run(server, 2, 2, 4, 300, null, Duration.ofSeconds(2));
            assertEquals(300, o.counts().ok(), o.counts().toString());
            assertEquals(0, o.protocolErrors());
        }
    }

    @Test
    void aLostDatagramEndsItsRequestAsATimeoutAndItsLateArrivalIsDroppedAndCounted() throws Exception {
        // every 10th of the first 100 requests loses its middle datagram, which comes 1 s later (timeout 600 ms)
        Set<Integer> cut = ConcurrentHashMap.newKeySet();
        try (ScriptedUdpServer server = new ScriptedUdpServer(3000, 1392, false, false, (n, datagrams, later) -> {
            if (n % 10 != 5 || n >= 100) {
                return datagrams;
            }
            cut.add(n);
            List<byte[]> sent = new ArrayList<>(datagrams);
            later.send(sent.remove(1), 1000);
            return sent;
        })) {
            long start = System.nanoTime();
            // open loop, 250/s: the run lasts two seconds, so the late datagrams (by 1.4 s) arrive while it runs
            Outcome o = run(server, 4, 2, 1, 500, "250", Duration.ofMillis(600));
            assertEquals(10, cut.size());
            OutcomeCounts c = o.counts();
            assertEquals(500, c.requests());
            assertEquals(500, c.ok() + c.timeout(), "nothing else: " + c);
            // a machine that stalls the test for longer than the timeout adds timeouts (and late replies) of its own
            assertTrue(c.timeout() >= 10, "each lost datagram ends its request as a timeout: " + c.timeout());
            if (c.timeout() == 10) {
                assertEquals(10, o.protocolErrors(), "each late datagram is dropped and counted");
            } else {
                assertTrue(o.protocolErrors() >= 10, "late datagrams: " + o.protocolErrors());
            }
            assertTrue(System.nanoTime() - start < Duration.ofSeconds(6).toNanos(), "the run ends on time");
        }
    }

    @Test
    void duplicatedDatagramsAreDroppedAndCounted() throws Exception {
        try (ScriptedUdpServer server = new ScriptedUdpServer(2000, 1392, false, false, (n, datagrams, later) -> {
            List<byte[]> sent = new ArrayList<>(datagrams);
            if (n < 50) {
                sent.add(0, datagrams.get(0)); // the first datagram twice, before the reply is complete
            }
            return sent;
        })) {
            Outcome o = run(server, 1, 1, 1, 200, null, Duration.ofSeconds(2));
            assertEquals(200, o.counts().ok(), o.counts().toString());
            assertEquals(50, o.protocolErrors());
        }
    }

    @Test
    void aReplyThatNeverComesEndsAsATimeoutWithoutHoldingUpTheOthers() throws Exception {
        // requests 3, 13, 23 … get no reply at all; pipelined neighbours on the same socket still complete
        try (ScriptedUdpServer server = new ScriptedUdpServer(100, 1392, false, false,
                (n, datagrams, later) -> n % 10 == 3 ? List.of() : datagrams)) {
            Outcome o = run(server, 2, 8, 1, 300, null, Duration.ofMillis(400));
            OutcomeCounts c = o.counts();
            assertEquals(300, c.requests());
            assertEquals(300, c.ok() + c.timeout(), "nothing else: " + c);
            // a machine that stalls the test for longer than the timeout adds timeouts (and late replies) of its own
            assertTrue(c.timeout() >= 30, "each unanswered request ends as a timeout: " + c.timeout());
            if (c.timeout() == 30) {
                assertEquals(0, o.protocolErrors());
            }
        }
    }
}
