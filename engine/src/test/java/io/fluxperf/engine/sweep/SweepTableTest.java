package io.fluxperf.engine.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The end of a sweep's text after its live rows: the rows again only when they ran out of rate order. */
class SweepTableTest {
    private static final List<String> OBJECTIVES = List.of("p99<1ms");

    @Test
    void risingStepsAreNotPrintedTwice() {
        SweepResult r = new SweepResult(List.of(step(1, false, 1000, true), step(2, false, 2000, true),
                step(3, false, 4000, false)), OBJECTIVES, "at 4,000/s: p99<1ms broken (3.000 ms)", false, false);
        String end = afterRows(r);
        assertFalse(end.contains("By rate:"), end);
        assertFalse(end.contains(SweepTable.header()), end);
        assertTrue(end.startsWith("Stopped: at 4,000/s"), end);
        assertTrue(end.contains("Knee: 2,000/s"), end);
    }

    @Test
    void bisectionStepsBringTheTableAgainByRate() {
        SweepStep refined = step(4, true, 3000, true);
        SweepResult r = new SweepResult(List.of(step(1, false, 1000, true), step(2, false, 2000, true),
                step(3, false, 4000, false), refined), OBJECTIVES, "at 4,000/s: p99<1ms broken (3.000 ms)", false, false);
        String end = afterRows(r);
        assertTrue(end.startsWith("By rate:\n" + SweepTable.header() + "\n"), end);
        int refinedAt = end.indexOf(SweepTable.row(refined));
        assertTrue(refinedAt > 0 && refinedAt < end.indexOf(SweepTable.row(r.steps().get(2))),
                "the refinement between the rates it bisects: " + end);
        assertTrue(end.contains("Knee: 3,000/s"), end);
        assertEquals(end, afterRows(r), "the same text each time");
    }

    /** A sweep in which no step failed ran out of rates at --to: the knee lies above it, and --to is no knee (issue 46). */
    @Test
    void whenNoStepFailedTheKneeLiesAboveTo() {
        SweepResult r = new SweepResult(List.of(step(1, false, 1000, true), step(2, false, 2000, true),
                step(3, false, 4000, true)), OBJECTIVES, "reached --to 4,000/s with every objective met (the knee lies above it)",
                false, true);
        assertTrue(r.kneeAboveTo());
        String knee = SweepTable.kneeLine(r);
        assertTrue(knee.startsWith("Knee: above 4,000/s, the --to bound: every rate tried met p99<1ms"), knee);
        assertTrue(knee.endsWith("; raise --to to find the knee"), knee);
        assertFalse(knee.startsWith("Knee: 4,000/s"), knee);
        assertEquals(Boolean.TRUE, SweepFiles.json(r).get("kneeAboveTo"));

        SweepResult stopped = new SweepResult(List.of(step(1, false, 1000, true)), OBJECTIVES, "interrupted", true, false);
        assertFalse(stopped.kneeAboveTo(), "Ctrl-C before --to says nothing of where the knee lies");
        assertTrue(SweepTable.kneeLine(stopped).startsWith("Knee: 1,000/s "), SweepTable.kneeLine(stopped));
        SweepResult failed = new SweepResult(List.of(step(1, false, 1000, true), step(2, false, 2000, false)), OBJECTIVES,
                "at 2,000/s: p99<1ms broken (3.000 ms)", false, false);
        assertFalse(failed.kneeAboveTo());
        assertTrue(SweepTable.kneeLine(failed).startsWith("Knee: 1,000/s (achieved"), SweepTable.kneeLine(failed));
    }

    /** The first rate's second try is labelled with an a, and a good one is the knee's floor as any other step. */
    @Test
    void theFirstRateTriedAgainHasAnA() {
        SweepStep again = new SweepStep(2, false, true, 1000, 1000, 100_000, 500_000, 900_000, 1000, 0, 0, true, null,
                List.of(new SweepStep.Judgement("p99<1ms", true, "0.500 ms")));
        assertTrue(SweepTable.row(again).startsWith("2a "), SweepTable.row(again));
        SweepResult r = new SweepResult(List.of(step(1, false, 1000, false), again, step(3, false, 2000, false)), OBJECTIVES,
                "at 2,000/s: p99<1ms broken (3.000 ms)", false, false);
        assertTrue(SweepTable.kneeLine(r).startsWith("Knee: 1,000/s (achieved"), SweepTable.kneeLine(r));
        assertFalse(afterRows(r).contains("By rate:"), "a second try at the same rate keeps the rows in rate order");
    }

    private static SweepStep step(int number, boolean refinement, double target, boolean met) {
        long p99 = met ? 500_000 : 3_000_000;
        return new SweepStep(number, refinement, false, target, target, 100_000, p99, 2 * p99, (long) target, 0, 0, true, null,
                List.of(new SweepStep.Judgement("p99<1ms", met, met ? "0.500 ms" : "3.000 ms")));
    }

    private static String afterRows(SweepResult r) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SweepTable.printAfterRows(r, new PrintStream(out, true, StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
    }
}
