package io.fluxperf.engine.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.StopReason;
import io.fluxperf.engine.metrics.WorkloadStats;
import io.fluxperf.testkit.MemcachedProcess;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The admin endpoint of a real run against memcached: its /metrics pass promtool, its counters
 * only grow and end equal to the report; bad requests get a 4xx and one sentence and touch nothing;
 * it listens on loopback unless told.
 */
class AdminEndpointTest {
    private static final String[] OUTCOMES = {"ok", "miss", "error", "timeout", "closed"};

    @Test
    void metricsPassPromtoolGrowOnlyAndEndEqualToTheReport() throws Exception {
        try (MemcachedProcess memcached = MemcachedProcess.start();
             AdminRun run = AdminRun.start(s -> {
                 s.server = memcached.address();
                 s.rate = "5000";
                 s.duration = Duration.ofSeconds(2);
                 s.windows = 2;
             })) {
            run.awaitMeasuring(60);
            List<Map<String, Double>> scrapes = new ArrayList<>();
            boolean checked = false;
            boolean badAsked = false;
            while (!run.result.isDone()) {
                String text = run.get("/metrics");
                scrapes.add(PromText.samples(text));
                if (!checked) {
                    PromText.assertPromtoolAccepts(text); // in the middle of a window
                    checked = true;
                } else if (!badAsked) {
                    askBadly(run); // while the load goes
                    badAsked = true;
                }
                Thread.sleep(250);
            }
            RunResult result = run.awaitResult(30);
            String last = run.get("/metrics");
            PromText.assertPromtoolAccepts(last);
            scrapes.add(PromText.samples(last));
            assertTrue(scrapes.size() >= 5, "scrapes: " + scrapes.size());
            assertTrue(badAsked, "the bad requests were sent during the run");

            // every counter only grows from scrape to scrape
            for (int i = 1; i < scrapes.size(); i++) {
                for (Map.Entry<String, Double> e : scrapes.get(i).entrySet()) {
                    if (e.getKey().contains("_total")) {
                        double before = scrapes.get(i - 1).getOrDefault(e.getKey(), 0.0);
                        assertTrue(e.getValue() >= before, e.getKey() + " went from " + before + " to " + e.getValue());
                    }
                }
            }
            // at the end, the counters are the report's
            Map<String, Double> end = scrapes.get(scrapes.size() - 1);
            WorkloadStats total = result.total().workloads().get(0);
            OutcomeCounts o = total.outcomes();
            long[] expected = {o.ok(), o.miss(), o.error(), o.timeout(), o.closed()};
            for (int i = 0; i < OUTCOMES.length; i++) {
                assertEquals(expected[i], end.get("fluxperf_requests_total{outcome=\"" + OUTCOMES[i] + "\",workload=\"get\"}"),
                        OUTCOMES[i]);
            }
            assertEquals(total.sent(), end.get("fluxperf_requests_sent_total{workload=\"get\"}"));
            assertEquals(total.bytesReceived(), end.get("fluxperf_received_bytes_total{workload=\"get\"}"));
            assertEquals(total.bytesSent(), end.get("fluxperf_sent_bytes_total{workload=\"get\"}"));
            assertTrue(o.requests() > 15_000, "requests: " + o.requests());
            // the bad requests counted nowhere: the run's requests are memcached's gets, all answered
            assertEquals(StopReason.COMPLETED, result.stopReason());
            assertEquals(o.requests(), o.miss(), "every get a miss, nothing else: " + o.requests());
            assertEquals(o.requests(), memcached.stats().get("cmd_get"));
            assertEquals(5000, end.get("fluxperf_target_requests_per_second{workload=\"get\"}"));
            assertEquals(result.total().workloads().get(0).latency().getTotalCount(),
                    end.get("fluxperf_latency_seconds_count{workload=\"get\"}"), 0.02 * o.requests(),
                    "the latency summary counts the measured requests");
            // TCP health on loopback: an RTT the kernel measured, nothing retransmitted
            assertTrue(end.get("fluxperf_tcp_smoothed_rtt_p50_seconds") > 0, "srtt: " + end);
            assertTrue(end.get("fluxperf_tcp_smoothed_rtt_max_seconds") >= end.get("fluxperf_tcp_smoothed_rtt_p50_seconds"));
            assertEquals(0, end.get("fluxperf_tcp_retransmitted_segments_total"));
        }
    }

    /** Malformed requests: a 4xx status and a one-sentence body each, and the run's rate unchanged. */
    private static void askBadly(AdminRun run) throws IOException, InterruptedException {
        String[][] bad = {
            {"GET", "/nothing-here", "404"},
            {"PUT", "/ratelimit/-5", "400"},
            {"PUT", "/ratelimit/abc", "400"},
            {"PUT", "/ratelimit/0", "400"},
            {"PUT", "/ratelimit/NaN", "400"},
            {"PUT", "/ratelimit/nosuch/100", "404"},
            {"PUT", "/ratelimit/get/1/2", "404"},
            {"PUT", "/ratelimit", "404"},
            {"GET", "/ratelimit/100", "405"},
            {"POST", "/metrics", "405"},
            {"DELETE", "/", "405"},
            {"GET", "/quitquitquit", "405"},
        };
        for (String[] b : bad) {
            AdminRun.Reply r = run.call(b[0], b[1]);
            assertEquals(Integer.parseInt(b[2]), r.status(), b[0] + " " + b[1] + ": " + r.body());
            String body = r.body().strip();
            assertTrue(body.endsWith(".") && body.indexOf(". ") < 0 && !body.contains("Exception"),
                    "one sentence: " + body);
        }
        assertEquals(5000, run.endpoint.figures().snapshot().targets()[0], "the rate is as it was");
    }

    @Test
    void listensOnLoopbackUnlessTold() throws Exception {
        try (AdminEndpoint endpoint = AdminEndpoint.start("0", "--admin")) {
            InetSocketAddress bound = endpoint.address();
            assertEquals("127.0.0.1", bound.getAddress().getHostAddress());
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", bound.getPort()), 2000); // it does listen
            }
            List<InetAddress> others = new ArrayList<>();
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                    if (!a.isLoopbackAddress() && !(a instanceof Inet6Address i6 && i6.isLinkLocalAddress())) {
                        others.add(a);
                    }
                }
            }
            for (InetAddress other : others) {
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress(other, bound.getPort()), 2000);
                    throw new AssertionError("the admin endpoint answers on " + other + ", not only on loopback");
                } catch (IOException refused) {
                    // as it should be
                }
            }
            System.out.println("admin endpoint refused on the machine's other addresses: " + others);
        }
        try (AdminEndpoint any = AdminEndpoint.start("0.0.0.0:0", "--admin")) {
            assertTrue(any.address().getAddress().isAnyLocalAddress(), "an address given is used: " + any.address());
        }
    }

    @Test
    void aBadAddressIsOneSentenceNamingTheFlag() {
        for (String bad : new String[] {"", "abc", "70000", "1.2.3.4:x", "::1:80", "nosuchhost.invalid:0"}) {
            UserError e = assertThrows(UserError.class, () -> AdminEndpoint.start(bad, "--admin").close(), bad);
            assertTrue(e.getMessage().startsWith("--admin: "), e.getMessage());
        }
    }

    @Test
    void aClosedLoopRunHasNoRateToSet() throws Exception {
        try (AdminRun run = AdminRun.start(s -> s.duration = Duration.ofSeconds(30))) {
            run.awaitMeasuring(60);
            AdminRun.Reply r = run.call("PUT", "/ratelimit/1000");
            assertEquals(409, r.status(), r.body());
            assertEquals("This run is closed-loop (no --rate), so it has no rate to set.", r.body().strip());
            assertEquals(0, run.endpoint.figures().snapshot().targets()[0], "unlimited");
            run.orchestrator.requestQuit();
            assertEquals(StopReason.QUIT, run.awaitResult(30).stopReason());
        }
    }
}
