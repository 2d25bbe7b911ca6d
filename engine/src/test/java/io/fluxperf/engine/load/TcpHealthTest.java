package io.fluxperf.engine.load;

import io.fluxperf.engine.config.ConnectionOptions;
import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.IntervalSample;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.TcpFigures;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.report.JsonReport;
import io.fluxperf.engine.report.TextReport;
import io.fluxperf.engine.request.Command;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServer;
import io.fluxperf.testkit.RealServers;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The kernel's TCP_INFO of the load connections, on loopback against a real memcached. */
@Tag("timing")
@ExtendWith(RealServers.class)
class TcpHealthTest {
    @RealServer
    private MemcachedProcess memcached;

    private RunResult run(RunConfig config) {
        return new LoadRun(config, new RunListener() { }).execute(
                new InetSocketAddress("127.0.0.1", memcached.port()), memcached.address());
    }

    private static RunConfig.Builder config(ConnectionOptions connection) {
        WorkloadConfig get = WorkloadConfig.of(Command.GET).withRate(2000)
                .withKeyspace(KeyspaceConfig.defaults().withCount(100));
        return RunConfig.builder().threads(1).connections(4).pipeline(1).duration(Duration.ofMillis(2500)).windows(1)
                .timeout(Duration.ofSeconds(1)).tcpNoDelay(true).seed(3).workloads(List.of(get))
                .statsInterval(Duration.ofSeconds(1)).connection(connection);
    }

    @Test
    void loopbackRttIsReportedBelowTheServiceTimeAndNothingIsRetransmitted() throws Exception {
        RunResult result = run(config(ConnectionOptions.defaults()).build());
        WindowResult total = result.total();
        TcpFigures tcp = total.tcp().figures();
        // a round at the start and one a second: at least 2 rounds of 4 connections in 2.5 s
        assertTrue(tcp.samples() >= 8, "samples: " + tcp.samples());
        assertTrue(tcp.rttP50Micros() > 0, "srtt p50: " + tcp.rttP50Micros());
        assertTrue(tcp.rttMaxMicros() >= tcp.rttP50Micros());
        long serviceP50 = total.summaries().service().p50();
        assertTrue(tcp.rttP50Micros() * 1000 < serviceP50,
                "srtt p50 " + tcp.rttP50Micros() + " us, service p50 " + serviceP50 + " ns");
        assertEquals(0, tcp.retransmits(), "retransmits on loopback");
        assertEquals(0, tcp.lost(), "lost on loopback");

        long sampled = result.intervals().stream().mapToLong(s -> s.tcp().samples()).sum();
        assertTrue(sampled >= 4, "per-second samples: " + sampled);
        IntervalSample withTcp = result.intervals().stream().filter(s -> s.tcp().samples() > 0).findFirst().orElseThrow();

        ByteArrayOutputStream text = new ByteArrayOutputStream();
        TextReport report = new TextReport(new PrintStream(text, true, StandardCharsets.UTF_8));
        report.statsBlock(withTcp);
        String stats = text.toString(StandardCharsets.UTF_8);
        assertTrue(stats.contains("tcpRetrans 0") && stats.contains("srttP50 "), stats);
        String line = TextReport.tcpLine(total);
        assertTrue(line.startsWith("TCP: retransmits: 0 lost: 0 srtt p50: " + tcp.rttP50Micros() + " us"), line);

        ByteArrayOutputStream json = new ByteArrayOutputStream();
        new JsonReport().write(result, json);
        com.fasterxml.jackson.databind.JsonNode j = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.toByteArray());
        com.fasterxml.jackson.databind.JsonNode t = j.get("total").get("tcp");
        assertEquals(tcp.samples(), t.get("samples").asLong(), j.toString());
        assertEquals(0, t.get("retransmits").asLong());
        assertEquals(tcp.rttP50Micros(), t.get("rttP50Micros").asLong());
        assertTrue(j.get("windows").get(0).get("tcp").get("samples").asLong() > 0);
        assertTrue(j.get("intervals").get(0).has("tcp"));
    }

    @Test
    void ioUringChannelsAreSampledToo() {
        org.junit.jupiter.api.Assumptions.assumeTrue(io.netty.channel.uring.IoUring.isAvailable(),
                () -> "io_uring is not available: " + io.netty.channel.uring.IoUring.unavailabilityCause());
        RunResult result = run(config(ConnectionOptions.builder().ioUring(true).build()).build());
        TcpFigures tcp = result.total().tcp().figures();
        assertTrue(tcp.samples() >= 4, "samples: " + tcp.samples());
        assertTrue(tcp.rttP50Micros() > 0, "srtt p50: " + tcp.rttP50Micros());
        assertEquals(0, tcp.retransmits());
    }

    @Test
    void bareSocketsOfAConnectionPerRequestAreSampledToo() {
        ConnectionOptions perRequest = ConnectionOptions.builder().connectPerRequest(true).build();
        RunResult result = run(config(perRequest).build());
        TcpFigures tcp = result.total().tcp().figures();
        assertTrue(tcp.samples() > 0, "samples: " + tcp.samples());
        assertTrue(tcp.rttP50Micros() > 0, "srtt p50: " + tcp.rttP50Micros());
        assertEquals(0, tcp.retransmits());
    }
}
