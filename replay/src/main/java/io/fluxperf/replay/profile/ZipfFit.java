package io.fluxperf.replay.profile;

import java.util.Arrays;

/**
 * The Zipf exponent of a popularity distribution as the OSDI'20 paper fits it: rank the keys by
 * how often they were requested (rank 1 the most), and take minus the least-squares slope of
 * ln(count) against ln(rank). Only keys requested at least twice take part: the long tail of
 * keys seen once would flatten the line.
 */
final class ZipfFit {
    private ZipfFit() {
    }

    /**
     * @param counts the request counts of the keys requested at least twice, in any order (sorted here)
     * @return alpha, or null with fewer than two keys
     */
    static Double alpha(int[] counts) {
        int n = counts.length;
        if (n < 2) {
            return null;
        }
        Arrays.sort(counts); // ascending: rank r (1 = most requested) is counts[n - r]
        double sx = 0;
        double sy = 0;
        for (int r = 1; r <= n; r++) {
            sx += Math.log(r);
            sy += Math.log(counts[n - r]);
        }
        double mx = sx / n;
        double my = sy / n;
        double sxy = 0;
        double sxx = 0;
        for (int r = 1; r <= n; r++) {
            double dx = Math.log(r) - mx;
            sxy += dx * (Math.log(counts[n - r]) - my);
            sxx += dx * dx;
        }
        double alpha = -sxy / sxx;
        return alpha == 0 ? 0.0 : alpha; // never -0.0
    }
}
