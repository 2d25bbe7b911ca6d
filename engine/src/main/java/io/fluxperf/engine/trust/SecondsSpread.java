package io.fluxperf.engine.trust;

import java.util.ArrayList;
import java.util.List;

/**
 * An interval of a whole run's percentile from how much it varies between seconds: the method of
 * batch means, or sectioning (Asmussen and Glynn, <i>Stochastic Simulation</i>, 2007, III.5), with
 * seconds as the batches. The order-statistic interval assumes that requests are independent; they
 * are not (a stall slows hundreds together), and the spread between seconds shows what that costs.
 * Latencies spread by factors, not by amounts, so the means are taken of the seconds' logarithms:
 * the interval is the whole run's value × e^(± t(k − 1) × s / √k), s being the standard deviation of
 * the logarithms of the k seconds' values. It never reaches 0, which an interval of amounts did on a
 * run with one slow second ({@code p50: 278 us [0, 1032]}), below anything a server can answer in.
 * Only whole seconds with {@link OrderStatistics#MIN_BEYOND} samples beyond the
 * percentile count; with fewer than {@link #MIN_SECONDS} of them there is no such interval.
 */
final class SecondsSpread {
    static final int MIN_SECONDS = 3;

    private SecondsSpread() {
    }

    /**
     * The bounds {@code {low, high}}, ns, of the percentile {@link PercentileIntervals#REPORTED}[{@code index}]
     * around {@code point}; null when there are too few seconds.
     *
     * @param workload the workload's index, or -1 for every request
     */
    static long[] bounds(List<SecondSummary> seconds, int workload, int index, long point) {
        double percentile = PercentileIntervals.REPORTED[index];
        List<Double> values = new ArrayList<>();
        for (SecondSummary s : seconds) {
            long requests = workload < 0 ? s.requests() : workload < s.workloads().size() ? s.workloads().get(workload).requests() : 0;
            if (!s.whole() || OrderStatistics.beyond(requests, percentile) < OrderStatistics.MIN_BEYOND) {
                continue;
            }
            long v = workload < 0 ? s.percentile(index) : s.workloads().get(workload).percentiles()[index];
            if (v > 0) {
                values.add(Math.log(v));
            }
        }
        int k = values.size();
        if (k < MIN_SECONDS) {
            return null;
        }
        double mean = values.stream().mapToDouble(Double::doubleValue).sum() / k;
        double squares = 0;
        for (double v : values) {
            squares += (v - mean) * (v - mean);
        }
        double half = Normal.t975(k - 1) * Math.sqrt(squares / (k - 1)) / Math.sqrt(k);
        return new long[] {Math.round(point * Math.exp(-half)), Math.round(point * Math.exp(half))};
    }
}
