package io.fluxperf.engine.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.engine.metrics.IntervalSample;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * PUT /ratelimit while a run goes: the schedule starts again at the new rate with no burst, the
 * per-second statistics and the window's target follow, and a workload's PUT changes that workload only.
 */
@Tag("timing")
@ExtendWith(RealServers.class)
class RateChangeTest {
    /** The rate the first test sets while the run goes at 5,000/s. */
    private static final double NEW_RATE = 10_000;

    @Test
    void aRateSetWhileRunningIsReachedWithinASecondWithoutABurst(MemcachedProcess memcached) throws Exception {
        try (AdminRun run = AdminRun.start(s -> {
                 s.server = memcached.address();
                 s.rate = "5000";
                 s.duration = Duration.ofSeconds(3);
                 s.windows = 2;
                 s.statsInterval = Duration.ofSeconds(1);
             })) {
            run.awaitMeasuring(60);
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(10)).until(() -> run.stats.size() >= 2);
            Thread.sleep(300); // deliberate: the PUT lands inside a statistics second, not at its edge
            long put = System.nanoTime();
            // twice the rate: a rate the client keeps while the suite's other fork is busy
            AdminRun.Reply r = run.call("PUT", "/ratelimit/" + (long) NEW_RATE);
            assertEquals(200, r.status(), r.body());
            RunResult result = run.awaitResult(60);

            List<AdminRun.Timed<IntervalSample>> stats = run.stats;
            StringBuilder seen = new StringBuilder();
            IntervalSample firstFull = null;
            IntervalSample secondFull = null;
            long sincePut = 0;
            double allowed = 0;
            for (AdminRun.Timed<IntervalSample> t : stats) {
                IntervalSample s = t.value();
                double rps = s.responses() / s.seconds();
                seen.append(String.format("%.1f s: %.0f/s, send lag p99 %.1f ms%n", s.second(), rps, s.sendLagP99() / 1e6));
                long started = t.nanos() - (long) (s.seconds() * 1e9);
                if (t.nanos() > put) {
                    // no burst: since the PUT, never more than the new schedule allows. Not "no second above
                    // the new rate": a loaded machine's client falls behind and catches up within a second
                    sincePut += s.responses();
                    allowed += 5_000 * Math.max(0, put - started) / 1e9 + NEW_RATE * (t.nanos() - Math.max(started, put)) / 1e9;
                    assertTrue(sincePut <= allowed * 1.05 + 500, "more since the PUT than the new rate allows (a burst): "
                            + sincePut + " against " + Math.round(allowed) + "\n" + seen);
                }
                if (started >= put && s.seconds() > 0.9) {
                    if (firstFull == null) {
                        firstFull = s;
                    } else if (secondFull == null) {
                        secondFull = s;
                    }
                }
            }
            // the first whole second after the PUT: its interval begins within a second of it. A client that
            // fell behind in it (send lag p99 over 10 ms: the CPU was not its own) reaches it in the next one
            assertTrue(firstFull != null, "no whole second after the PUT:\n" + seen);
            double first = firstFull.responses() / firstFull.seconds();
            boolean behind = firstFull.sendLagP99() > 10_000_000 && secondFull != null;
            if (!behind || Math.abs(first - NEW_RATE) <= NEW_RATE * 0.02) {
                assertEquals(NEW_RATE, first, NEW_RATE * 0.02, "the first whole second after the PUT:\n" + seen);
            } else {
                double next = secondFull.responses() / secondFull.seconds();
                assertTrue(next >= NEW_RATE * 0.98, "the second after a first one behind its schedule:\n" + seen);
            }
            assertTrue(seen.length() > 0);
            // the report's windows carry the rate asked for in their own time
            WindowResult last = run.windows.get(run.windows.size() - 1);
            assertTrue(last.workloadConfigs().get(0).rate() > NEW_RATE * 0.75, "window target: " + last.workloadConfigs().get(0).rate());
            assertEquals(1, run.rateChanges.size(), "the report was told of the change");
            // 6 s at 5,000/s would be 30,000
            assertTrue(result.total().workloads().get(0).outcomes().requests() > 40_000);
        }
    }

    /**
     * Issue 46: a rate set low and then high. The request taken at the low rate waited for its
     * time, seconds away, and held up the high rate until then (after 1e-9/s for ever).
     */
    @Test
    void aLowRateThenAHighOneIsHighInTheNextSecond(MemcachedProcess memcached) throws Exception {
        try (AdminRun run = AdminRun.start(s -> {
                 s.server = memcached.address();
                 s.rate = "5000";
                 s.duration = Duration.ofSeconds(2);
                 s.windows = 3;
                 s.statsInterval = Duration.ofSeconds(1);
             })) {
            run.awaitMeasuring(60);
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(10)).until(() -> !run.stats.isEmpty());
            AdminRun.Reply low = run.call("PUT", "/ratelimit/0.5"); // one request per 2 s window, the least allowed
            assertEquals(200, low.status(), low.body());
            assertEquals("The run's rate is now 0.5 requests/s.", low.body().strip());
            Thread.sleep(300); // deliberate: the low rate's next request is now 2 s away, the wait under test
            long put = System.nanoTime();
            AdminRun.Reply high = run.call("PUT", "/ratelimit/5000");
            assertEquals(200, high.status(), high.body());
            RunResult result = run.awaitResult(60);

            StringBuilder seen = new StringBuilder();
            IntervalSample firstFull = null;
            for (AdminRun.Timed<IntervalSample> t : run.stats) {
                IntervalSample s = t.value();
                seen.append(String.format("%.1f s: %.0f/s%n", s.second(), s.responses() / s.seconds()));
                long started = t.nanos() - (long) (s.seconds() * 1e9);
                if (firstFull == null && started >= put && s.seconds() > 0.9) {
                    firstFull = s;
                }
            }
            assertTrue(firstFull != null, "no whole second after the second PUT:\n" + seen);
            // the defect held the high rate up for seconds (near 0 here), and a catch-up would burst by
            // thousands; replies pushed across the second's edge by a loaded machine move it a few per cent
            assertEquals(5000, firstFull.responses() / firstFull.seconds(), 5000 * 0.10,
                    "the first whole second after PUT /ratelimit/5000:\n" + seen);
            assertEquals(2, run.rateChanges.size());
            assertTrue(result.total().workloads().get(0).outcomes().requests() > 10_000, seen.toString());
        }
    }

    @Test
    void aWorkloadsPutChangesThatWorkloadOnly(@TempDir Path dir, MemcachedProcess memcached) throws Exception {
        Path toml = dir.resolve("two.toml");
        Files.writeString(toml, """
                [[workload]]
                name = "get"
                method = "get"
                rate = 3000

                [[workload]]
                name = "set"
                method = "set"
                rate = 2000
                """);
        try (AdminRun run = AdminRun.start(s -> {
                 s.config = toml;
                 s.server = memcached.address();
                 s.duration = Duration.ofSeconds(8);
             })) {
            run.awaitMeasuring(60);
            // a measured second at the first rates, then two whole seconds that began a second after the PUT
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                    .until(() -> metrics(run).get("seconds").size() >= 1);
            AdminRun.Reply r = run.call("PUT", "/ratelimit/get/6000");
            assertEquals(200, r.status(), r.body());
            long put = System.currentTimeMillis();
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                    .until(() -> secondsAfter(metrics(run), put) >= 2);
            JsonNode json = metrics(run);
            int checked = 0;
            double get = 0;
            double set = 0;
            int keptUp = 0;
            for (JsonNode sec : json.get("seconds")) {
                if (!beganASecondAfter(sec, put)) {
                    continue;
                }
                double g = sec.get("rates").get(0).asDouble();
                double st = sec.get("rates").get(1).asDouble();
                get += g;
                set += st;
                // the rates themselves, in a second in which the loop kept up (set at its unchanged rate): a loaded
                // machine's held-back second slows both
                if (Math.abs(st - 2000) <= 2000 * 0.02) {
                    assertEquals(6000, g, 6000 * 0.05, "get: " + json.get("seconds"));
                    keptUp++;
                }
                assertEquals(6000, sec.get("targets").get(0).asDouble());
                assertEquals(2000, sec.get("targets").get(1).asDouble());
                checked++;
            }
            // over the seconds since: one load loop paces both workloads, so a loaded machine that holds
            // it back slows both alike and leaves their ratio; a change to both, or to the wrong one, moves it
            assertEquals(3.0, get / set, 3.0 * 0.02, "get changed, set not: " + json.get("seconds"));
            assertTrue(checked >= 1, "whole seconds after the PUT: " + json.get("seconds"));
            if (keptUp == 0) {
                // held back in every second since: the ratio above says which workload changed; the averages only
                // that the loop ran near its schedule
                assertEquals(6000, get / checked, 6000 * 0.25, "get: " + json.get("seconds"));
                assertEquals(2000, set / checked, 2000 * 0.25, "set unchanged: " + json.get("seconds"));
            }
            assertEquals("get", json.get("rate_changes").get(0).get("workload").asText());
            assertEquals(1, json.get("rate_changes").size());
            run.orchestrator.requestStop();
            run.awaitResult(30);
        }
    }

    private static JsonNode metrics(AdminRun run) throws Exception {
        return new ObjectMapper().readTree(run.get("/metrics.json"));
    }

    /** A whole second that began a second after the PUT (its "unix_millis" is its end). */
    private static boolean beganASecondAfter(JsonNode second, long putMillis) {
        return second.get("unix_millis").asLong() - 1000 >= putMillis + 1000;
    }

    private static long secondsAfter(JsonNode json, long putMillis) {
        long n = 0;
        for (JsonNode sec : json.get("seconds")) {
            n += beganASecondAfter(sec, putMillis) ? 1 : 0;
        }
        return n;
    }
}
