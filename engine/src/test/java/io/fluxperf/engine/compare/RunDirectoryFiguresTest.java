package io.fluxperf.engine.compare;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fluxperf.engine.rundir.RunDirectory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** How the seconds of a run directory, its own or merged, become per-second figures. */
class RunDirectoryFiguresTest {
    private static RunDirectory.Interval second(long startMs, long endMs, long count) {
        Histogram h = new Histogram(3);
        h.recordValueWithCount(1_000_000, count);
        Map<String, Histogram> m = new LinkedHashMap<>();
        m.put("", h);
        m.put("get/intended", h);
        return new RunDirectory.Interval(startMs, endMs, m);
    }

    @Test
    void aRunsOwnSecondsKeepTheirLengths() {
        List<RunDirectory.Interval> s = List.of(second(1000, 2000, 10), second(2000, 3000, 10), second(3000, 3400, 4));
        assertArrayEquals(new double[] {1.0, 1.0, 0.4}, RunDirectoryFigures.lengths(s), 1e-9);
    }

    @Test
    void mergedSecondsThatOverlapCountOneStepEach() {
        // two machines 0.47 s apart: each merged interval spans both machines' second
        List<RunDirectory.Interval> s = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            s.add(second(1000 + i * 1000L, 2470 + i * 1000L, 600));
        }
        assertArrayEquals(new double[] {1, 1, 1, 1, 1}, RunDirectoryFigures.lengths(s), 1e-9);
        double[] figures = Bootstrap.figures(RunDirectoryFigures.series(s, List.of("get/intended")), new double[] {50});
        assertEquals(600.0, figures[0], 1e-9, "requests/s of the merged run");
    }
}
