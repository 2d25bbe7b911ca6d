package io.fluxperf.engine.sweep;

import io.fluxperf.engine.UserError;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SweepPlanTest {
    private static final Duration W = Duration.ofSeconds(1);

    @Test
    void aFactorMultipliesUpToTheBoundWhichIsTriedToo() {
        assertEquals(List.of(10_000.0, 15_000.0, 22_500.0, 33_750.0, 40_000.0),
                new SweepPlan(10_000, 40_000, 0, 1.5, 0, W).rates());
    }

    @Test
    void aStepAddsAndLandsOnTheBound() {
        assertEquals(List.of(1000.0, 2000.0, 3000.0), new SweepPlan(1000, 3000, 1000, 0, 0, W).rates());
        assertEquals(List.of(500.0), new SweepPlan(500, 500, 100, 0, 0, W).rates());
    }

    @Test
    void badPlansAreOneSentenceNamingTheFlag() {
        assertMessage("--from 5,000 is above --to 1,000", () -> new SweepPlan(5000, 1000, 100, 0, 0, W));
        assertMessage("--step and --factor: give one of them, not both", () -> new SweepPlan(1, 10, 1, 2, 0, W));
        assertMessage("--step or --factor: give one", () -> new SweepPlan(1, 10, 0, 0, 0, W));
        assertMessage("--factor: must be above 1", () -> new SweepPlan(1, 10, 0, 0.5, 0, W));
        assertMessage("--from:", () -> new SweepPlan(0, 10, 1, 0, 0, W));
        assertMessage("--refine:", () -> new SweepPlan(1, 10, 1, 0, -1, W));
        assertMessage("--window:", () -> new SweepPlan(1, 10, 1, 0, 0, Duration.ZERO));
        assertMessage("--from 1 to --to 1,000,000,000 makes more than 1000 steps", () -> new SweepPlan(1, 1e9, 1, 0, 0, W));
    }

    private static void assertMessage(String start, Runnable r) {
        UserError e = assertThrows(UserError.class, r::run);
        assertTrue(e.getMessage().startsWith(start), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }
}
