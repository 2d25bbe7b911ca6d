package io.fluxperf.engine.protocol.http.target;

import io.fluxperf.engine.config.KeyDistribution;
import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.ValueSize;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.load.LoadRun;
import io.fluxperf.engine.load.RunListener;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.CommandTemplate;
import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.engine.target.TargetStats;
import io.fluxperf.engine.workload.GeneratedLoad;
import io.fluxperf.engine.workload.ValuePattern;
import io.fluxperf.testkit.HttpOptionsOf;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** fluxperf's HTTP client against the embedded HTTP server, through {@link LoadRun}: bodies, hits, chunks, statuses. */
class HttpLoadRunEmbeddedTest {
    private HttpTargetServer server;

    @BeforeEach
    void start() {
        server = HttpTargetServer.start(TargetOptions.defaults());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private static RunConfig config(int connections, int pipeline, long requests, Set<Integer> ok, WorkloadConfig... workloads) {
        return RunConfig.builder().protocol("http").threads(1).connections(connections).pipeline(pipeline)
                .duration(Duration.ofSeconds(20)).windows(1).timeout(Duration.ofSeconds(2)).tcpNoDelay(true)
                .requests(requests).seed(11).workloads(List.of(workloads))
                .protocolOptions(HttpOptionsOf.of(List.of(), ok)).build();
    }

    private RunResult run(RunConfig config) {
        return new LoadRun(config, new RunListener() { }).execute(server.address(), server.describe());
    }

    private static OutcomeCounts outcomes(RunResult result) {
        WindowResult w = result.total();
        OutcomeCounts o = w.total().outcomes();
        assertEquals(o.requests(), o.ok() + o.miss() + o.error() + o.timeout() + o.closed(), "outcomes add up");
        assertEquals(o.requests(), w.total().latency().getTotalCount(), "every request is timed");
        return o;
    }

    private static KeyspaceConfig sequential(long keys, int keyLength) {
        return new KeyspaceConfig(keys, keyLength, KeyDistribution.SEQUENTIAL, 1);
    }

    @Test
    void putBodiesAreStoredByteForByte() throws IOException {
        WorkloadConfig put = WorkloadConfig.of(Command.PUT, CommandTemplate.word("/__key__")).withBytes(ValueSize.fixed(100))
                .withKeyspace(sequential(500, 12));
        RunConfig config = config(4, 1, 1000, Set.of(2), put);
        OutcomeCounts o = outcomes(run(config));
        assertEquals(1000, o.ok(), "201 Created, then 204 No Content");
        TargetStats s = server.stats();
        assertEquals(1000, s.command("put"));
        assertEquals(500, s.items());
        ValuePattern pattern = GeneratedLoad.patternFor(config);
        try (RawHttp c = new RawHttp(server.address())) {
            for (long key : new long[] {0, 1, 17, 250, 251, 499}) {
                byte[] stored = c.request("GET", String.format("/%012d", key), null).read().body();
                assertArrayEquals(pattern.expected(key, 100), stored, "value of key " + key);
            }
        }
        assertEquals(1000 + 6, server.statusCounts().get("2xx"));
    }

    @Test
    void postsGoToTheirTemplatePath() throws IOException {
        WorkloadConfig post = WorkloadConfig.of(Command.POST).withBytes(ValueSize.fixed(33))
                .withKeyspace(sequential(100, 4)).withTemplate(CommandTemplate.word("/posts/__key__"));
        RunConfig config = config(2, 4, 300, Set.of(2), post);
        assertEquals(300, outcomes(run(config)).ok());
        assertEquals(300, server.stats().command("post"));
        try (RawHttp c = new RawHttp(server.address())) {
            assertArrayEquals(GeneratedLoad.patternFor(config).expected(42, 33), c.request("GET", "/posts/0042", null).read().body());
        }
    }

    @Test
    void getsAfterAHitPreloadAllHit() {
        WorkloadConfig get = WorkloadConfig.of(Command.GET).withHit(true).withKeyspace(KeyspaceConfig.defaults().withCount(200));
        RunResult result = run(config(4, 1, 2000, Set.of(2), get));
        assertEquals(200, result.preloadedKeys(), "--hit preloads with PUT");
        OutcomeCounts o = outcomes(result);
        assertEquals(2000, o.ok());
        TargetStats s = server.stats();
        assertEquals(2000, s.getHits(), "every GET found a stored body");
        assertEquals(0, s.getMisses());
        assertEquals(200, s.command("put"));
    }

    @Test
    void chunkedResponsesArePipelinedAndCounted() {
        WorkloadConfig get = WorkloadConfig.of(Command.GET).withTemplate(CommandTemplate.word("/chunks/__key__?chunked=4&bytes=3000"));
        RunResult result = run(config(2, 8, 1000, Set.of(2), get));
        assertEquals(1000, outcomes(result).ok());
        assertTrue(result.total().total().bytesReceived() >= 1000L * 3000, "bytes " + result.total().total().bytesReceived());
    }

    @Test
    void statusClassesDecideOkAndErrorAndTheServerCountsThem() {
        WorkloadConfig unavailable = WorkloadConfig.of(Command.GET).withTemplate(CommandTemplate.word("/s/__key__?status=503"))
                .withWeight(1);
        WorkloadConfig missing = WorkloadConfig.of(Command.DELETE).withWeight(1).withKeyspace(KeyspaceConfig.defaults());
        RunResult result = run(config(4, 2, 1000, Set.of(2), unavailable, missing));
        OutcomeCounts o = outcomes(result);
        assertEquals(1000, o.error(), "503s and 404s are errors");
        assertEquals(0, o.closed() + o.timeout(), "error statuses keep the connection");
        assertEquals(1000, server.statusCounts().get("4xx") + server.statusCounts().get("5xx"));

        RunResult lenient = run(config(4, 2, 500, Set.of(2, 4), missing));
        assertEquals(500, outcomes(lenient).ok(), "--http-ok 2xx,4xx: a DELETE of nothing is fine");
    }

    @Test
    void aServerThatClosesAfterEachResponseLosesNoRequest() {
        WorkloadConfig get = WorkloadConfig.of(Command.GET).withTemplate(CommandTemplate.word("/bye/__key__?close"));
        RunResult result = run(config(2, 1, 40, Set.of(2), get));
        OutcomeCounts o = outcomes(result);
        assertEquals(40, o.requests());
        assertEquals(40, o.ok() + o.closed(), "ok, or closed when sent before the close arrived");
        assertTrue(o.ok() >= 20, "ok " + o.ok());
        assertEquals(0, o.error() + o.timeout());
        assertTrue(server.stats().totalConnections() >= o.ok(), "a new connection after every close");
    }
}
