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
                step(3, false, 4000, false)), OBJECTIVES, "at 4,000/s: p99<1ms broken (3.000 ms)", false);
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
                step(3, false, 4000, false), refined), OBJECTIVES, "at 4,000/s: p99<1ms broken (3.000 ms)", false);
        String end = afterRows(r);
        assertTrue(end.startsWith("By rate:\n" + SweepTable.header() + "\n"), end);
        int refinedAt = end.indexOf(SweepTable.row(refined));
        assertTrue(refinedAt > 0 && refinedAt < end.indexOf(SweepTable.row(r.steps().get(2))),
                "the refinement between the rates it bisects: " + end);
        assertTrue(end.contains("Knee: 3,000/s"), end);
        assertEquals(end, afterRows(r), "the same text each time");
    }

    private static SweepStep step(int number, boolean refinement, double target, boolean met) {
        long p99 = met ? 500_000 : 3_000_000;
        return new SweepStep(number, refinement, target, target, 100_000, p99, 2 * p99, (long) target, 0, 0, true, null,
                List.of(new SweepStep.Judgement("p99<1ms", met, met ? "0.500 ms" : "3.000 ms")));
    }

    private static String afterRows(SweepResult r) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SweepTable.printAfterRows(r, new PrintStream(out, true, StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
    }
}
