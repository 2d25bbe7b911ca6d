package io.fluxperf.engine.slo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.metrics.WindowResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Objectives judged against windows whose figures are known (recorded as a load thread records them). */
class EvaluatorTest {
    private static Objective o(String expression) {
        return Objectives.parse(List.of(expression)).get(0);
    }

    private static double measure(String expression, WindowResult w) {
        return Evaluator.measure(o(expression), new ResultFigures(w, SloWindows.WORKLOADS));
    }

    @Test
    void eachMeasureReadsTheWindowsFigures() {
        WindowResult w = SloWindows.window(1, 5, 10);
        // get: 1000 requests, 1..1000 us; set: 100 at 5 ms, 10 errors; 1100 requests in 1 s
        double getP50 = w.workloads().get(0).latency().getValueAtPercentile(50);
        assertEquals(getP50, measure("get.p50<1s", w));
        assertEquals(500_000, getP50, 500_000 * 0.001, "HdrHistogram's 3 digits");
        assertEquals(w.workloads().get(0).latency().getValueAtPercentile(95), measure("get.p95<1s", w), "a percentile the report does not print");
        assertEquals(w.total().latency().getValueAtPercentile(99.9), measure("p999<1s", w));
        assertEquals(w.total().latency().getMaxValue(), measure("max<1s", w));
        assertEquals(w.total().latency().getValueAtPercentile(100), measure("p100<1s", w));
        assertEquals(Math.round(w.total().latency().getMean()), measure("mean<1s", w));
        assertEquals(1100, measure("rate>=1", w), 1e-9);
        assertEquals(100, measure("set.rate>=1", w), 1e-9);
        assertEquals(100.0 * 1090 / 1100, measure("success>=1%", w), 1e-9);
        assertEquals(10, measure("set.errors<=1%", w), 1e-9);
        assertEquals(0, measure("get.errors<=1%", w), 1e-9);
        assertEquals(90, measure("get.hitrate>=1%", w), 1e-9);
        assertEquals(90, measure("hitrate>=1%", w), 1e-9, "a set is no read: its successes are no hits");
        assertTrue(Double.isNaN(measure("set.hitrate>=1%", w)), "a workload that does not read has no hit rate");
    }

    @Test
    void verdictsPerWindowAndRunAndTheirText() {
        SloVerdicts v = new SloVerdicts(List.of(o("set.p99<10ms"), o("errors<=0.5%"), o("get.p50<2ms")));
        assertFalse(v.window(new ResultFigures(SloWindows.window(1, 5, 0), SloWindows.WORKLOADS)));
        assertFalse(v.window(new ResultFigures(SloWindows.window(2, 20, 10), SloWindows.WORKLOADS)));
        WindowResult run = SloWindows.window(1, 5, 0).merge(0, SloWindows.window(2, 20, 10));
        v.run(new ResultFigures(run, SloWindows.WORKLOADS));
        assertTrue(v.failed());
        assertEquals(List.of(true, false, false), v.of(v.objectives().get(0)).stream().map(Verdict::passed).toList(),
                "set.p99: 5 ms, 20 ms, and over the run 20 ms");
        assertEquals(List.of(true, false, true), v.of(v.objectives().get(1)).stream().map(Verdict::passed).toList(),
                "errors: 0 %, 10/1100 = 0.91 %, 10/2200 = 0.45 %");
        assertTrue(v.passed(v.objectives().get(2)));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        v.print(new PrintStream(out, true, StandardCharsets.UTF_8));
        assertEquals(String.join("\n", "",
                "Objectives: 1 of 3 held",
                "  FAIL  set.p99<10ms  run: 20.005 ms [20.005 ms, unbounded] missed; failed in window 2 of 2 (worst: 20.005 ms"
                        + " in window 2)",
                "  FAIL  errors<=0.5%  run: 0.455 %; failed in window 2 of 2 (worst: 0.909 % in window 2)",
                "  PASS  get.p50<2ms   run: 500.223 us [478.207 us, 523.007 us] met; held in all 2 windows (worst: 500.223 us"
                        + " in window 1)", ""),
                out.toString(StandardCharsets.UTF_8));
    }

    /** get's p50 in these figures: 500.223 us, its 95 % interval [469.247 us, 532.479 us] from 1,000 requests. */
    @Test
    void aPercentileIsMetMissedOrTooCloseToCallByItsInterval() {
        ResultFigures f = new ResultFigures(SloWindows.window(1, 5, 0), SloWindows.WORKLOADS);
        assertEquals(Verdict.Call.MET, Evaluator.evaluate(o("get.p50<600us"), f).call());
        assertEquals(Verdict.Call.MISSED, Evaluator.evaluate(o("get.p50<400us"), f).call());
        assertEquals(Verdict.Call.MET, Evaluator.evaluate(o("get.p50>=400us"), f).call());
        Verdict close = Evaluator.evaluate(o("get.p50<510us"), f);
        assertEquals(Verdict.Call.TOO_CLOSE, close.call());
        assertTrue(close.passed(), "the point holds: too close to call counts as held unless strict");
        assertEquals("[469.247 us, 532.479 us]", close.intervalText());
        assertFalse(Evaluator.evaluate(o("get.p50<510us").withStrict(true), f).passed(), "--slo-strict");
        Verdict closeMiss = Evaluator.evaluate(o("get.p50<490us"), f);
        assertEquals(Verdict.Call.TOO_CLOSE, closeMiss.call());
        assertFalse(closeMiss.passed(), "the point does not hold");
        Verdict exact = Evaluator.evaluate(o("errors<=1%"), f);
        assertFalse(exact.hasInterval(), "only percentiles have intervals");
        assertEquals(Verdict.Call.MET, exact.call());

        SloVerdicts v = new SloVerdicts(List.of(o("get.p50<510us").withStrict(true), o("get.p50<600us")));
        v.window(f);
        v.run(f);
        v.trust(new io.fluxperf.engine.trust.TrustVerdict(java.util.EnumSet.of(
                io.fluxperf.engine.trust.TrustVerdict.Flag.CLIENT_PAUSED)));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        v.print(new PrintStream(out, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("Objectives: 1 of 2 held (1 too close to call at this sample size, which --slo-strict"
                + " fails)"), text);
        assertTrue(text.contains("  FAIL  get.p50<510us  run: 500.223 us [469.247 us, 532.479 us] too close to call;"), text);
        assertTrue(text.contains("  The run does not trust its own figures (client paused): these verdicts may describe"
                + " the client, not the server"), text);
        com.fasterxml.jackson.databind.JsonNode json = v.json();
        assertEquals(false, json.path("trusted").asBoolean(true));
        assertEquals("client paused", json.path("trust").asText());
        assertEquals("too close to call", json.path("objectives").get(0).path("run").path("call").asText());
        assertEquals(469247, json.path("objectives").get(0).path("run").path("low").asLong(), 500);
        assertTrue(json.path("objectives").get(0).path("strict").asBoolean());
    }

    @Test
    void anAbortingObjectiveStopsAtTheWindowItFailsInAndLaterWindowsAreNotJudged() {
        SloVerdicts v = new SloVerdicts(List.of(o("set.p99<10ms").withAbort(true), o("rate>=1")));
        assertFalse(v.window(new ResultFigures(SloWindows.window(1, 5, 0), SloWindows.WORKLOADS)));
        assertTrue(v.window(new ResultFigures(SloWindows.window(2, 20, 0), SloWindows.WORKLOADS)));
        assertFalse(v.window(new ResultFigures(SloWindows.window(3, 20, 0), SloWindows.WORKLOADS)));
        assertEquals(2, v.abortedAfter());
        assertEquals("set.p99<10ms", v.abortedBy().text());
        assertEquals(2, v.windowsOf(v.objectives().get(1)).size(), "window 3 only drained what was in flight");
    }

    @Test
    void aWindowWithoutRequestsFailsALatencyObjective() {
        WindowResult empty = WindowResult.empty(1, 0, SloWindows.WORKLOADS);
        Verdict v = Evaluator.evaluate(o("p99<1s"), new ResultFigures(empty, SloWindows.WORKLOADS));
        assertFalse(v.passed());
        assertEquals("no requests", v.measuredText());
    }

    @Test
    void anObjectiveAboutAnotherWorkloadIsNamed() {
        assertEquals("--slo 'gett.p99<1ms': the run has no workload 'gett'; its workloads are get, set",
                assertThrows(UserError.class, () -> Evaluator.checkWorkloads(List.of(o("gett.p99<1ms")),
                        List.of("get", "set"))).getMessage());
    }
}
