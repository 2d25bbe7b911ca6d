package io.fluxperf.engine.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.StopReason;
import io.fluxperf.engine.metrics.WorkloadStats;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The admin endpoint of a real run against memcached: its /metrics pass promtool, its counters
 * only grow and end equal to the report; bad requests get a 4xx and one sentence and touch nothing;
 * it listens on loopback unless told.
 */
@ExtendWith(RealServers.class)
class AdminEndpointTest {
    private static final String[] OUTCOMES = {"ok", "miss", "error", "timeout", "closed"};

    @Test
    void metricsPassPromtoolGrowOnlyAndEndEqualToTheReport(MemcachedProcess memcached) throws Exception {
        try (AdminRun run = AdminRun.start(s -> {
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
                Thread.sleep(250); // deliberate: the scrape interval, several scrapes in the run
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
            // the latency histogram: as many requests as the summary, in cumulative buckets
            assertEquals(end.get("fluxperf_latency_seconds_count{workload=\"get\"}"),
                    end.get("fluxperf_request_duration_seconds_count{workload=\"get\"}"));
            double below = 0;
            int buckets = 0;
            for (Map.Entry<String, Double> e : end.entrySet()) {
                if (e.getKey().startsWith("fluxperf_request_duration_seconds_bucket{")) {
                    assertTrue(e.getValue() >= below, "cumulative: " + e.getKey() + " " + e.getValue() + " after " + below);
                    below = e.getValue();
                    buckets++;
                }
            }
            assertEquals(44, buckets, "43 bounds and +Inf");
            assertEquals(end.get("fluxperf_request_duration_seconds_count{workload=\"get\"}"), below, "+Inf holds every one");
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

    /**
     * Issue 46: requests no client library sends. Each gets a 400 (505 for a version that is not
     * HTTP/1.x, 414 and 431 for heads too long) with one sentence, and nothing is logged: before,
     * some got no answer and a 40-frame IllegalArgumentException, others WARN lines of Netty's
     * decoder, and HTTP/9.9 was answered "HTTP/9.9 200 OK".
     */
    @Test
    void malformedRequestsGetOneSentenceAndNothingIsLogged() throws Exception {
        String[][] bad = {
            {"GET /\\..\\etc\\passwd HTTP/1.1\r\nHost: a\r\n\r\n", "400"},
            {"GET /%zz HTTP/1.1\r\nHost: a\r\n\r\n", "400"},
            {"GET /metrics%ZZ HTTP/1.1\r\nHost: a\r\n\r\n", "400"},
            {"PUT /ratelimit/" + utf8("\u0665\u0660\u0660\u0660") + " HTTP/1.1\r\nHost: a\r\n\r\n", "400"},
            {"PUT /ratelimit/%D9%A5%D9%A0%D9%A0%D9%A0 HTTP/1.1\r\nHost: a\r\n\r\n", "400"},
            {"PUT /ratelimit/1e-9 HTTP/1.1\r\nHost: a\r\n\r\n", "400"},
            {"PUT /ratelimit/1e12 HTTP/1.1\r\nHost: a\r\n\r\n", "400"},
            {"PUT /ratelimit/0x10 HTTP/1.1\r\nHost: a\r\n\r\n", "400"},
            {"PUT /ratelimit/Infinity HTTP/1.1\r\nHost: a\r\n\r\n", "400"},
            {"GET / HTTP/9.9\r\nHost: a\r\n\r\n", "505"},
            {"GET / HTTP/2.0\r\nHost: a\r\n\r\n", "505"},
            {"GET / FOO/1.1\r\nHost: a\r\n\r\n", "400"},
            {"GET /\n\n", "400"},
            {"GET / HTTP/1.1\nHost: a\n\n", "400"},
            {"GET / HTTP/1.1\r\nHost: a\n\r\n", "400"},
            {"GET / HTTP/1.1\r\nno colon here\r\n\r\n", "400"},
            {"\u0000\u0001\u00ff\u00fe garbage \u0007\u001b[2J\r\n\r\n", "400"},
            {"GET * HTTP/1.1\r\nHost: a\r\n\r\n", "400"},
            {"GET /" + "a".repeat(9000) + " HTTP/1.1\r\nHost: a\r\n\r\n", "414"},
            {"GET / HTTP/1.1\r\nHost: a\r\nX-Big: " + "b".repeat(20_000) + "\r\n\r\n", "431"},
            {"PUT /ratelimit/100 HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello", "413"},
            {"BREW /metrics HTTP/1.1\r\nHost: a\r\n\r\n", "405"},
        };
        io.fluxperf.engine.config.RunSettings settings = new io.fluxperf.engine.config.RunSettings();
        settings.rate = "5000";
        settings.duration = Duration.ofSeconds(1);
        io.fluxperf.engine.config.RunConfig config = io.fluxperf.engine.config.ConfigResolver.resolve(settings.toFlags());
        java.io.PrintStream out = System.out;
        java.io.PrintStream err = System.err;
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        java.io.PrintStream capture = new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8);
        StringBuilder problems = new StringBuilder();
        try (AdminEndpoint endpoint = AdminEndpoint.start("0", "--admin")) {
            io.fluxperf.engine.workload.RateControl rates = new io.fluxperf.engine.workload.RateControl(config);
            endpoint.attach(new LiveFigures(config, "run", "embedded", true), rates, () -> { });
            assertEquals(AdminConnections.Limits.DEFAULT.connections(), endpoint.connectionCap(),
                    "the full cap: this JVM's fd limit leaves plenty beside 25 connections to the embedded target");
            System.setOut(capture);
            System.setErr(capture);
            for (String[] b : bad) {
                RawHttp.Answer a = RawHttp.exchange(endpoint.address(), b[0]);
                String shown = b[0].length() > 60 ? b[0].substring(0, 60) + "..." : b[0];
                if (a.status() != Integer.parseInt(b[1]) || !a.oneSentence() || !a.statusLine().startsWith("HTTP/1.1 ")) {
                    problems.append(shown.replace("\r", "\\r").replace("\n", "\\n")).append(" -> ")
                            .append(a.statusLine()).append(" | ").append(a.body().strip()).append('\n');
                }
            }
            // the endpoint still answers, and the rate is as it was
            assertEquals("", problems.toString(), "requests answered otherwise than with their status and one sentence");
            RawHttp.Answer ok = RawHttp.exchange(endpoint.address(), "GET /vars HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
            assertEquals(200, ok.status(), ok.raw());
            assertEquals(5000, rates.rate(0));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        String log = printed.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertFalse(log.contains("WARN") || log.contains("Exception") || log.contains("\tat "), "logged:\n" + log);
    }

    /**
     * Issue 46: idle connections were never closed, nor their number bounded. Now the endpoint
     * holds a bounded number, a new connection takes the place of the one idle longest, and a GET
     * on a new connection is answered at once however many wait.
     */
    @Test
    void idleConnectionsAreBoundedAndAGetIsStillAnswered() throws Exception {
        int cap = AdminConnections.Limits.DEFAULT.connections();
        List<Socket> idle = new ArrayList<>();
        try (AdminEndpoint endpoint = AdminEndpoint.start("0", "--admin")) {
            for (int i = 0; i < 200; i++) {
                Socket s = new Socket();
                s.connect(endpoint.address(), 2000);
                idle.add(s);
            }
            long t0 = System.nanoTime();
            RawHttp.Answer a = RawHttp.exchange(endpoint.address(), "GET /vars HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
            long millis = (System.nanoTime() - t0) / 1_000_000;
            assertEquals(503, a.status(), a.raw()); // no run attached: the answer of a live endpoint
            assertTrue(millis < 1000, "answered in " + millis + " ms");
            // the endpoint closes the connections it does not keep: wait for their FINs
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> open(idle) <= cap);
        } finally {
            for (Socket s : idle) {
                s.close();
            }
        }
    }

    /**
     * Issue 46: idle and slowloris connections were never closed. With a header timeout of 1 s and
     * an idle timeout of 2 s: a connection that sends nothing, one that trickles a head in a byte
     * at a time, and a kept-alive one with no second request are each closed in time, while a
     * client that asks now and then is answered throughout.
     */
    @Test
    void slowAndIdleConnectionsAreClosed() throws Exception {
        AdminConnections.Limits limits = new AdminConnections.Limits(32, Duration.ofSeconds(1), Duration.ofSeconds(2));
        try (AdminEndpoint endpoint = AdminEndpoint.start("0", "--admin", limits);
             Socket silent = new Socket();
             Socket slowloris = new Socket();
             Socket keptAlive = new Socket()) {
            long t0 = System.nanoTime();
            silent.connect(endpoint.address(), 2000);
            slowloris.connect(endpoint.address(), 2000);
            keptAlive.connect(endpoint.address(), 2000);
            keptAlive.getOutputStream().write("GET /vars HTTP/1.1\r\nHost: a\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertEquals(503, RawHttp.read(keptAlive.getInputStream()).status(), "answered, and kept alive");
            long answered = System.nanoTime();
            byte[] head = "GET /vars HTTP/1.1\r\nHost: a\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".getBytes(StandardCharsets.US_ASCII);
            long slowClosed = 0;
            // the slowloris client: a byte every 50 ms, and never the end of its head; this wait is the test
            for (int i = 0; i < head.length && slowClosed == 0; i++) {
                try {
                    slowloris.getOutputStream().write(head[i]);
                    slowloris.getOutputStream().flush();
                } catch (IOException closed) {
                    slowClosed = System.nanoTime();
                }
                if (open(List.of(slowloris)) == 0) {
                    slowClosed = System.nanoTime();
                }
                Thread.sleep(50); // deliberate: the slowloris trickle
            }
            assertTrue(slowClosed > 0, "the slowloris connection is still open after " + head.length * 50 + " ms");
            assertEquals(1.0, (slowClosed - t0) / 1e9, 0.9, "closed about the header timeout after it connected");
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> open(List.of(silent)) == 0);
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> open(List.of(keptAlive)) == 0);
            double keptFor = (System.nanoTime() - answered) / 1e9;
            assertTrue(keptFor >= 1.9, "the kept-alive connection is closed by the idle timeout (2 s), not sooner: " + keptFor);
            RawHttp.Answer later = RawHttp.exchange(endpoint.address(), "GET /vars HTTP/1.1\r\nHost: a\r\n\r\n");
            assertEquals(503, later.status(), "the endpoint still answers: " + later.raw());
        }
    }

    /** The cap on connections leaves the run's file descriptors alone (see AdminEndpoint#attach). */
    @Test
    void theConnectionCapLeavesTheLoadItsFileDescriptors() {
        assertEquals(32, AdminConnections.budget(32, 65_536, 200, 1_000), "plenty: the full cap");
        assertEquals(36, 1024 - 200 - 724 - AdminConnections.RESERVE);
        assertEquals(32, AdminConnections.budget(32, 1024, 200, 724));
        assertEquals(6, AdminConnections.budget(32, 256, 136, 50), "256 - 136 open - 50 for the load - 64 reserved");
        assertEquals(1, AdminConnections.budget(32, 256, 136, 200), "none to spare: one, so the endpoint stays usable");
        assertEquals(32, AdminConnections.budget(32, -1, 0, 0), "no limit known");
        io.fluxperf.engine.config.RunSettings s = new io.fluxperf.engine.config.RunSettings();
        s.rate = "1000";
        s.connections = 20;
        assertEquals(40, AdminEndpoint.loadDescriptors(io.fluxperf.engine.config.ConfigResolver.resolve(s.toFlags())),
                "20 connections to the embedded target: both ends in this process");
        s.server = "127.0.0.1:11211";
        assertEquals(20, AdminEndpoint.loadDescriptors(io.fluxperf.engine.config.ConfigResolver.resolve(s.toFlags())));
    }

    /** How many of {@code sockets} the other end has not closed (a read neither ends nor fails). */
    static int open(List<Socket> sockets) throws IOException {
        int n = 0;
        for (Socket s : sockets) {
            if (s.isClosed()) {
                continue;
            }
            s.setSoTimeout(1);
            try {
                if (s.getInputStream().read() < 0) {
                    s.close();
                    continue;
                }
            } catch (java.net.SocketTimeoutException stillOpen) {
                // nothing to read and not closed
            } catch (IOException reset) {
                s.close();
                continue;
            }
            n++;
        }
        return n;
    }

    private static String utf8(String s) {
        return new String(s.getBytes(java.nio.charset.StandardCharsets.UTF_8), java.nio.charset.StandardCharsets.ISO_8859_1);
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
