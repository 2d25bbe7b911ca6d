package io.fluxperf.engine.load;

import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.request.RequestPool;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.testkit.RedisProcess;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Flux;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Requests bound to their own connections (a replay's original clients) keep the order of their
 * key across connections until the server has run them, not only until they were written. A real
 * redis-server holds client 0's {@code RPUSH list a} unread behind a {@code BLPOP} that blocks
 * client 0's connection for half a second (pipeline 2: both are written at once). Client 1's
 * {@code RPUSH list b}, taken after it, used to go out at once, since the {@code a} had left: redis
 * ran it first, and the list came out {@code b, a}. Now {@code b} waits in client 1's backlog until
 * {@code a} is answered, and client 0's {@code RPUSH list c} after it waits for {@code b}'s
 * reply in turn. Client 2's {@code SET other}, taken after {@code b}, is not held up by that wait
 * (invariant 13): redis runs it while client 0 is still blocked.
 */
@ExtendWith(RealServers.class)
class AffinityKeyOrderTest {
    /** How long the BLPOP blocks client 0's connection: what the test checks is the order around it. */
    private static final String BLOCK_SECONDS = "0.5";

    @Test
    void aKeyKeepsItsOrderAcrossConnectionsUntilAnswered(RedisProcess redis) {
        List<Object[]> log = List.of(
                new Object[] {0, new String[] {"BLPOP", "blocker", BLOCK_SECONDS}},
                new Object[] {0, new String[] {"RPUSH", "list", "a"}},
                new Object[] {1, new String[] {"RPUSH", "list", "b"}},
                new Object[] {2, new String[] {"SET", "other", "x"}},
                new Object[] {0, new String[] {"RPUSH", "list", "c"}});
        RunConfig config = RunConfig.builder().protocol("redis").threads(1).connections(3).pipeline(2)
                .requests(log.size()).windows(1).timeout(Duration.ofSeconds(5)).tcpNoDelay(true).seed(3)
                .workload(WorkloadConfig.of(Command.GET)).build();
        try (RedisProcess.Monitor monitor = redis.monitor()) {
            RunResult result = assertTimeoutPreemptively(Duration.ofSeconds(20), () ->
                    new LoadRun(config, new RunListener() { }).execute(
                            new InetSocketAddress("127.0.0.1", redis.port()), redis.address(), new Clients(log)));
            OutcomeCounts o = result.total().total().outcomes();
            assertEquals(log.size(), o.requests());
            assertEquals(0, o.error() + o.timeout() + o.closed(), "errors, timeouts, closed");
            assertEquals(List.of("a", "b", "c"), redis.command("LRANGE", "list", "0", "-1"),
                    "each RPUSH ran in the order the requests were taken");
            List<String> seen = verbsAndKeys(monitor.await(log.size(), Duration.ofSeconds(10)));
            assertTrue(seen.indexOf("SET other") < seen.indexOf("RPUSH list"),
                    "client 2's SET ran while client 0 was blocked, not after the wait of client 1: " + seen);
        }
    }

    /** "VERB key" of each MONITOR line. */
    private static List<String> verbsAndKeys(List<String> lines) {
        List<String> out = new ArrayList<>();
        for (String line : lines) {
            String[] words = line.substring(line.indexOf("] ") + 2).split(" ");
            out.add(words[0].replace("\"", "") + " " + words[1].replace("\"", ""));
        }
        return out;
    }

    /** The requests of {@code log} as a replay gives them: each with its words, its key and its client's connection. */
    private static final class Clients implements RequestSource {
        private final List<Object[]> log;

        Clients(List<Object[]> log) {
            this.log = log;
        }

        @Override
        public Flux<Request> requests(int thread, int threads, RequestPool pool, long startNanos) {
            return Flux.<Request, int[]>generate(() -> new int[1], (n, sink) -> {
                Object[] entry = log.get(n[0]++);
                String[] words = (String[]) entry[1];
                Request r = pool.acquire().command(Command.COMMAND, 0);
                for (String w : words) {
                    byte[] b = w.getBytes(StandardCharsets.UTF_8);
                    r.addArg(b, 0, b.length);
                }
                byte[] key = words[1].getBytes(StandardCharsets.UTF_8);
                sink.next(r.addKey(key, 0, key.length).affinity((Integer) entry[0]));
                if (n[0] == log.size()) {
                    sink.complete();
                }
                return n;
            });
        }

        @Override
        public long backlogBytes(int thread, int threads) {
            return 1 << 20;
        }
    }
}
