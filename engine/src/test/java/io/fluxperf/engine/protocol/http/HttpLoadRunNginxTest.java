package io.fluxperf.engine.protocol.http;

import io.fluxperf.engine.config.ConnectionOptions;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.ValueSize;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.load.LoadRun;
import io.fluxperf.engine.load.RunListener;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.protocol.CodecFactory;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.ProtocolOptions;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.CommandTemplate;
import io.fluxperf.testkit.ForwardingProtocol;
import io.fluxperf.testkit.HttpOptionsOf;
import io.fluxperf.testkit.NginxProcess;
import io.fluxperf.testkit.NginxProcess.Access;
import io.fluxperf.testkit.RealServer;
import io.fluxperf.testkit.RealServers;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The HTTP codec through {@link LoadRun} against a real nginx 1.22, with nginx's access log as
 * the witness: every request fluxperf counts is a line there, with the status fluxperf saw, on
 * the connection fluxperf used. Each test uses its own query string, so one nginx serves all.
 */
@ExtendWith(RealServers.class)
class HttpLoadRunNginxTest {
    @RealServer
    private static NginxProcess nginx;

    private static RunResult run(int connections, int pipeline, long requests, WorkloadConfig workload,
                                 Set<Integer> okClasses, boolean perRequest) {
        return run(connections, pipeline, requests, workload, okClasses, perRequest, List.of(), null);
    }

    /** {@code codecs}, if not null, counts the codecs the run makes. */
    private static RunResult run(int connections, int pipeline, long requests, WorkloadConfig workload,
                                 Set<Integer> okClasses, boolean perRequest, List<String> headers, AtomicInteger codecs) {
        ProtocolOptions options = HttpOptionsOf.of(headers, okClasses);
        ConnectionOptions connection = ConnectionOptions.builder().connectPerRequest(perRequest).build();
        RunConfig config = RunConfig.builder().protocol("http").threads(1).connections(connections).pipeline(pipeline)
                .duration(Duration.ofSeconds(20)).windows(1).timeout(Duration.ofSeconds(2)).tcpNoDelay(true)
                .requests(requests).seed(7).workload(workload).protocolOptions(options).connection(connection).build();
        Protocol http = Protocols.find("http");
        LoadRun run = new LoadRun(config, codecs != null ? countingCodecs(http, codecs) : http, new RunListener() { });
        return run.execute(new InetSocketAddress("127.0.0.1", nginx.port()), nginx.address());
    }

    /** {@code inner}, counting the codecs a run makes. */
    private static Protocol countingCodecs(Protocol inner, AtomicInteger codecs) {
        return new ForwardingProtocol(inner) {
            @Override
            public CodecFactory codecs(ProtocolOptions options, String server) {
                CodecFactory made = inner.codecs(options, server);
                return () -> {
                    codecs.incrementAndGet();
                    return made.newCodec();
                };
            }
        };
    }

    private static WorkloadConfig workload(Command method, String path) {
        return WorkloadConfig.of(method).withTemplate(CommandTemplate.word(path));
    }

    private static OutcomeCounts outcomes(RunResult result) {
        WindowResult w = result.total();
        OutcomeCounts o = w.total().outcomes();
        assertEquals(o.requests(), o.ok() + o.miss() + o.error() + o.timeout() + o.closed(), "outcomes add up");
        assertEquals(o.requests(), w.total().latency().getTotalCount(), "every request is timed");
        return o;
    }

    private static Set<Long> connectionsOf(List<Access> log) {
        return log.stream().map(Access::connection).collect(Collectors.toSet());
    }

    @Test
    void keepAliveGetsAreAllInNginxsLogOnTheirConnections() {
        String path = "/small.txt?run=keepalive";
        long before = nginx.stubStatus().get("requests");
        RunResult result = run(4, 1, 3000, workload(Command.GET, path), Set.of(2), false);
        OutcomeCounts o = outcomes(result);
        assertEquals(3000, o.requests());
        assertEquals(3000, o.ok());
        List<Access> log = nginx.awaitAccessLog(path, 3000, 5000);
        assertEquals(3000, log.size(), "nginx logged every request, and no more");
        assertTrue(log.stream().allMatch(a -> a.status() == 200 && a.method().equals("GET")));
        assertEquals(4, connectionsOf(log).size(), "keep-alive: four connections carried them all");
        assertTrue(log.stream().mapToLong(Access::connectionRequest).max().orElse(0) >= 3000 / 4);
        long after = nginx.stubStatus().get("requests");
        assertEquals(3000 + 1, after - before, "stub_status counted them (and the read after)");
        assertTrue(result.total().total().bytesReceived() >= 3000L * (NginxProcess.SMALL_BYTES + 150),
                "the 100-byte body and nginx's head, every time: " + result.total().total().bytesReceived());
    }

    /** Without --path, every request asks for / (as wrk and dperf do), which an ordinary web server has: no 404s. */
    @Test
    void withoutAPathEveryGetAsksForTheRoot() {
        RunResult result = run(2, 1, 200, WorkloadConfig.of(Command.GET), Set.of(2), false);
        OutcomeCounts o = outcomes(result);
        assertEquals(200, o.ok(), "nginx answered every GET / with its index: " + o);
        List<Access> log = nginx.awaitAccessLog("/", 200, 5000);
        assertEquals(200, log.size(), "every request was for /");
        assertTrue(log.stream().allMatch(a -> a.status() == 200), "no request was for a key's path (a 404 each)");
    }

    @Test
    void pipelinedGetsComeBackInOrder() {
        String path = "/small.txt?run=pipelined";
        RunResult result = run(2, 16, 8000, workload(Command.GET, path), Set.of(2), false);
        OutcomeCounts o = outcomes(result);
        assertEquals(8000, o.ok());
        List<Access> log = nginx.awaitAccessLog(path, 8000, 5000);
        assertEquals(8000, log.size());
        assertEquals(2, connectionsOf(log).size());
    }

    @Test
    void connectPerRequestPutsEveryRequestOnItsOwnConnection() {
        String path = "/small.txt?run=cps";
        RunResult result = run(4, 1, 300, workload(Command.GET, path), Set.of(2), true);
        OutcomeCounts o = outcomes(result);
        assertEquals(300, o.ok());
        List<Access> log = nginx.awaitAccessLog(path, 300, 5000);
        assertEquals(300, log.size());
        assertEquals(300, connectionsOf(log).size(), "one nginx connection per request");
        assertTrue(log.stream().allMatch(a -> a.connectionRequest() == 1), "each the first and only on its connection");
    }

    @Test
    void connectPerRequestWithConnectionCloseKeepsOneCodecPerConnectionSlot() {
        String path = "/small.txt?run=cps-close";
        AtomicInteger codecs = new AtomicInteger();
        RunResult result = run(4, 1, 300, workload(Command.GET, path), Set.of(2), true, List.of("Connection: close"), codecs);
        OutcomeCounts o = outcomes(result);
        assertEquals(300, o.ok(), "each codec, reset, read the response of every new connection");
        assertEquals(0, result.total().connections().failures());
        long opened = result.total().connections().openedCount();
        assertTrue(opened >= 300, "opened " + opened);
        assertEquals(opened, result.total().connectLatency().getTotalCount(), "every connect is timed once it is ready");
        List<Access> log = nginx.awaitAccessLog(path, 300, 5000);
        assertEquals(300, connectionsOf(log).size(), "one nginx connection per request");
        assertEquals(4, codecs.get(), "made once per slot, not once per connection");
    }

    @Test
    void notFoundIsAnErrorUnlessFourXxIsOk() {
        RunResult strict = run(4, 1, 500, workload(Command.GET, "/missing/strict/__key__"), Set.of(2), false);
        OutcomeCounts o = outcomes(strict);
        assertEquals(500, o.error());
        assertEquals(0, o.ok() + o.closed() + o.timeout(), "a 404 keeps the connection and the order");

        RunResult lenient = run(4, 1, 500, workload(Command.GET, "/missing/lenient/__key__"), Set.of(2, 4), false);
        assertEquals(500, outcomes(lenient).ok(), "--http-ok 2xx,4xx");

        List<Access> log = nginx.settledAccessLog("/missing/");
        assertEquals(1000, log.size());
        assertTrue(log.stream().allMatch(a -> a.status() == 404));
    }

    @Test
    void postToAStaticFileIsAnErrorFromNginx() {
        String path = "/small.txt?run=post";
        WorkloadConfig post = workload(Command.POST, path).withBytes(ValueSize.fixed(64));
        RunResult result = run(4, 1, 400, post, Set.of(2), false);
        OutcomeCounts o = outcomes(result);
        assertEquals(400, o.error(), "405 Not Allowed");
        assertEquals(0, o.closed() + o.timeout());
        List<Access> log = nginx.awaitAccessLog(path, 400, 5000);
        assertEquals(400, log.size());
        assertTrue(log.stream().allMatch(a -> a.status() == 405 && a.method().equals("POST")));
        assertEquals(400L * (64 + 100), result.total().total().bytesSent(), 400L * 100,
                "each request carried its 64-byte body");
    }
}
