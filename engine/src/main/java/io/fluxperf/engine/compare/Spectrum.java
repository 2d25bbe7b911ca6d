package io.fluxperf.engine.compare;

import java.util.ArrayList;
import java.util.List;

/**
 * Latency by percentile, as HdrHistogram's plotter draws it: x is 1/(1-p) on a log axis (the
 * "nines": 90%, 99%, 99.9%, …), ten points per nine, up to the run's largest value.
 */
public final class Spectrum {
    /** Points per nine on the axis. */
    private static final int PER_NINE = 10;

    private Spectrum() {
    }

    /**
     * The points of {@code s}, all its seconds together.
     *
     * @return pairs {percentile, value}; the last is 100% at the maximum; empty when nothing was counted
     */
    public static List<double[]> of(SecondSeries s) {
        long total = 0;
        for (int i = 0; i < s.size(); i++) {
            total += s.total(i);
        }
        List<double[]> out = new ArrayList<>();
        if (total == 0) {
            return out;
        }
        List<Double> levels = new ArrayList<>();
        // stop where one request is a whole step: further levels all read the maximum
        for (int j = 0; ; j++) {
            double tail = Math.pow(10, -(double) j / PER_NINE);
            if (tail * total < 1) {
                break;
            }
            levels.add(100 * (1 - tail));
        }
        levels.add(100.0);
        double[] ps = levels.stream().mapToDouble(Double::doubleValue).toArray();
        double[] v = Bootstrap.figures(s, ps);
        for (int k = 0; k < ps.length; k++) {
            out.add(new double[] {ps[k], v[1 + k]});
        }
        return out;
    }
}
