package io.fluxperf.engine.trust;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Mann-Kendall's p-values (exact and approximated) and the Theil-Sen line. */
class TrendTest {
    @Test
    void aMonotoneSeriesOfFiveHasTheSmallestExactP() {
        Trend t = Trend.of(new double[] {1, 2, 3, 4, 5});
        assertEquals(10, t.s());
        assertEquals(2.0 / 120, t.p(), 1e-12, "one order of 120 each way");
        assertEquals(1, t.slope(), 1e-12);
        assertEquals(1, t.first(), 1e-12);
        assertEquals(5, t.last(), 1e-12);
    }

    @Test
    void theExactPIsTheShareOfOrdersAsFarFromNone() {
        // every order of 6 points, counted: P(|S| >= s) against the recurrence of Mahonian numbers
        int[] y = {0, 1, 2, 3, 4, 5};
        long[] atLeast = new long[16];
        int orders = 0;
        for (int[] p : permutations(y)) {
            int s = 0;
            for (int i = 0; i < 6; i++) {
                for (int j = i + 1; j < 6; j++) {
                    s += Integer.signum(p[j] - p[i]);
                }
            }
            for (int k = 0; k <= Math.abs(s); k++) {
                atLeast[k]++;
            }
            orders++;
        }
        for (int s = 1; s <= 15; s += 2) {
            assertEquals((double) atLeast[s] / orders, Trend.exactP(6, s), 1e-12, "S " + s);
        }
        double[] ten = {1, 2, 4, 3, 5, 6, 8, 7, 9, 10};
        assertEquals(41, Trend.of(ten).s());
        assertEquals(2 * (1 + 9 + 44) / 3_628_800.0, Trend.of(ten).p(), 1e-15, "at most 2 inversions, either way");
    }

    private static java.util.List<int[]> permutations(int[] a) {
        java.util.List<int[]> out = new java.util.ArrayList<>();
        permute(a.clone(), 0, out);
        return out;
    }

    private static void permute(int[] a, int k, java.util.List<int[]> out) {
        if (k == a.length) {
            out.add(a.clone());
            return;
        }
        for (int i = k; i < a.length; i++) {
            int t = a[k]; a[k] = a[i]; a[i] = t;
            permute(a, k + 1, out);
            t = a[k]; a[k] = a[i]; a[i] = t;
        }
    }

    @Test
    void oneOutlyingPointIsNoTrend() {
        // a server's stall in one second of twelve
        double[] y = {400, 410, 395, 405, 402, 150_000, 398, 404, 401, 399, 403, 400};
        Trend t = Trend.of(y);
        assertTrue(t.p() > 0.3, "p " + t.p());
        assertTrue(Math.abs(t.last() - t.first()) < 20, "the line stays at the level: " + t);
    }

    @Test
    void tiesAreCorrectedFor() {
        Trend t = Trend.of(new double[] {5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5});
        assertEquals(0, t.s());
        assertEquals(1, t.p(), 1e-12);
    }

    @Test
    void studentsTAndTheNormalAreRight() {
        assertEquals(0.975, Normal.cdf(1.959963984540054), 1e-6);
        assertEquals(2.571, Normal.t975(5), 1e-9);
        assertEquals(2.021, Normal.t975(40), 0.002);
        assertEquals(1.984, Normal.t975(100), 0.002);
    }
}
