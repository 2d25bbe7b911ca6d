package io.fluxperf.engine.trust;

import io.fluxperf.engine.metrics.SendLateness;
import io.fluxperf.engine.report.HumanUnits;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether a run's per-second figures are steady enough for its totals to describe it. Three checks,
 * each built to stay quiet on a steady run with ordinary noise and on a single bad second (a stall of
 * the server is a thing to measure, not a sign that the measurement failed):
 * <ol>
 *   <li><b>An outlying start.</b> The first j seconds (j at most half the run) are outlying when
 *       their p99s are at least {@link #FIRST_RATIO} times the median of the others' ("the rest's"),
 *       the lower bound of each one's 95 % interval lies above the highest p99 of the others (each is
 *       worse than every later second beyond its sampling error), and each lies
 *       {@link #ROBUST_Z} or more robust deviations above the others in log scale (the median
 *       absolute deviation × 1.4826, at least {@link #MIN_LOG_SPREAD}: Iglewicz and Hoaglin's
 *       modified z-score, so that a start merely as noisy as the rest is not singled out). The
 *       largest such j is named. When the JIT's compiler threads were on a CPU for
 *       {@link #COMPILING_SHARE} of those seconds or more, the client was still compiling.</li>
 *   <li><b>A trend across the run</b> (at least {@link #MIN_TREND_SECONDS} seconds after an outlying
 *       start): the Mann-Kendall test ({@link Trend}) of the seconds' p99, and of their rate, at
 *       p &lt; {@link #TREND_ALPHA}, and a Theil-Sen line that moves by {@link #P99_CHANGE} (p99, as
 *       a ratio) or {@link #RATE_CHANGE} (rate) from the first second to the last.</li>
 *   <li><b>A drift within a window</b> (runs of several windows; windows of at least
 *       {@link #MIN_DRIFT_SECONDS} seconds): the same test at p &lt; {@link #DRIFT_ALPHA}, the same
 *       sizes, and a line whose start or end lies outside the window's own 95 % interval (of its p99
 *       from order statistics; of its rate from the Poisson spread of its count).</li>
 *   <li><b>A window that began behind</b> (paced runs): no request of its first second left within
 *       {@link SendLateness#LATE_NANOS} of its time. A backlog from before the window (a slow start,
 *       a stall in the warm-up, a rate the warm-up could not hold) went out in it, so its latencies
 *       include that wait although no connection lacked room once it began.</li>
 * </ol>
 * Only whole seconds count ({@link SecondSummary#whole()}), and for p99 only seconds with
 * {@link OrderStatistics#MIN_BEYOND} samples beyond their p99.
 */
public final class Stability {
    static final double FIRST_RATIO = 1.5;
    static final double ROBUST_Z = 3.5;
    static final double MIN_LOG_SPREAD = Math.log(1.05);
    static final double COMPILING_SHARE = 0.10;
    static final int MIN_TREND_SECONDS = 8;
    static final double TREND_ALPHA = 0.001;
    static final int MIN_DRIFT_SECONDS = 6;
    static final double DRIFT_ALPHA = 0.01;
    static final double P99_CHANGE = 1.25;
    static final double RATE_CHANGE = 0.05;
    private static final double Z95 = 1.959963984540054;

    private Stability() {
    }

    /**
     * The outlying first seconds of a run, or null.
     *
     * @param seconds       every second of the run, in order
     * @param warmupSeconds the run's --warmup, s (the advice adds to it)
     */
    public static Finding firstSeconds(List<SecondSummary> seconds, double warmupSeconds) {
        double[] start = outlying(seconds);
        int found = (int) start[0];
        double ratio = start[1];
        if (found == 0) {
            return null;
        }
        List<SecondSummary> usable = seconds.stream().filter(s -> s.whole() && s.p99Sound()).toList();
        double seconds0 = 0;
        long compiled = 0;
        boolean known = true;
        for (SecondSummary s : usable.subList(0, found)) {
            seconds0 += s.seconds();
            known &= s.compileMillis() >= 0;
            compiled += Math.max(0, s.compileMillis());
        }
        String advice = "--warmup " + ((long) Math.ceil(warmupSeconds - 1e-9) + found + 1) + " leaves "
                + (found == 1 ? "it" : "them") + " out";
        String why = !known ? advice : compiled >= COMPILING_SHARE * seconds0 * 1000
                ? "the client was still compiling: " + advice
                : "the client's compiler was quiet, so a cold server, cache or connections: " + advice;
        String which = found == 1 ? "the first second's p99 was " : "the first " + found + " seconds' p99 was ";
        return new Finding(Finding.Kind.FIRST_SECONDS, 0, which + String.format(Locale.ROOT, "%.1fx", ratio)
                + " the rest's (" + why + ")");
    }

    /** How many of the run's first seconds are outlying (0 when none is), as {@link #firstSeconds} finds them. */
    public static int outlyingStart(List<SecondSummary> seconds) {
        return (int) outlying(seconds)[0];
    }

    /** {@code {j, ratio}}: the largest outlying start of at most half the usable seconds, and its ratio; {0, 0} for none. */
    private static double[] outlying(List<SecondSummary> seconds) {
        List<SecondSummary> usable = seconds.stream().filter(s -> s.whole() && s.p99Sound()).toList();
        if (usable.size() < 3 || seconds.isEmpty() || usable.get(0) != seconds.get(0)) {
            return new double[] {0, 0};
        }
        int found = 0;
        double ratio = 0;
        for (int j = 1; j <= usable.size() / 2; j++) {
            double r = outlyingBlock(usable.subList(0, j), usable.subList(j, usable.size()));
            if (r > 0) {
                found = j;
                ratio = r;
            }
        }
        return new double[] {found, ratio};
    }

    /** The block's ratio to the rest when every second of it is outlying, else 0. */
    private static double outlyingBlock(List<SecondSummary> block, List<SecondSummary> rest) {
        double[] logs = new double[rest.size()];
        long highest = 0;
        for (int i = 0; i < logs.length; i++) {
            logs[i] = Math.log(Math.max(1, rest.get(i).p99()));
            highest = Math.max(highest, rest.get(i).p99());
        }
        double center = Trend.median(logs.clone());
        double[] deviations = new double[logs.length];
        for (int i = 0; i < logs.length; i++) {
            deviations[i] = Math.abs(logs[i] - center);
        }
        double spread = Math.max(MIN_LOG_SPREAD, 1.4826 * Trend.median(deviations));
        double median = Math.exp(center);
        double[] blockP99 = new double[block.size()];
        for (int i = 0; i < block.size(); i++) {
            SecondSummary s = block.get(i);
            double z = (Math.log(Math.max(1, s.p99())) - center) / spread;
            if (s.p99() < FIRST_RATIO * median || s.p99Low() <= highest || z < ROBUST_Z) {
                return 0;
            }
            blockP99[i] = s.p99();
        }
        return Trend.median(blockP99) / median;
    }

    /**
     * Trends in the seconds' p99 and rate across the run.
     *
     * @param skip the outlying first seconds, left out
     */
    public static List<Finding> trends(List<SecondSummary> seconds, int skip) {
        List<Finding> out = new ArrayList<>();
        List<SecondSummary> whole = seconds.subList(Math.min(skip, seconds.size()), seconds.size()).stream()
                .filter(SecondSummary::whole).toList();
        List<SecondSummary> sound = whole.stream().filter(SecondSummary::p99Sound).toList();
        if (sound.size() >= MIN_TREND_SECONDS) {
            Trend t = Trend.of(logP99(sound));
            if (t.p() < TREND_ALPHA && bigP99Change(t)) {
                out.add(new Finding(Finding.Kind.P99_TREND, 0, "p99 " + movedNanos(Math.exp(t.first()), Math.exp(t.last()))
                        + " over the run's " + sound.size() + " seconds (a trend: Mann-Kendall " + p(t.p()) + ")"));
            }
        }
        if (whole.size() >= MIN_TREND_SECONDS) {
            double[] rates = whole.stream().mapToDouble(SecondSummary::rate).toArray();
            Trend t = Trend.of(rates);
            if (t.p() < TREND_ALPHA && bigRateChange(t, rates)) {
                out.add(new Finding(Finding.Kind.RATE_TREND, 0, "the rate " + movedRate(t.first(), t.last())
                        + " over the run's " + whole.size() + " seconds (a trend: Mann-Kendall " + p(t.p()) + ")"));
            }
        }
        return out;
    }

    /**
     * A paced window that began behind its schedule, or null.
     *
     * @param startLagNanos the smallest send lag of the window's first second, ns; -1 when nothing paced was sent in it
     */
    public static Finding beganBehind(int window, long startLagNanos) {
        if (startLagNanos < SendLateness.LATE_NANOS) {
            return null;
        }
        return new Finding(Finding.Kind.BEGAN_BEHIND, window, "window " + window + " began "
                + HumanUnits.latency(startLagNanos) + " behind its schedule (no request of its first second left on time):"
                + " a backlog from before it went out in it, and its latencies include that wait (a longer --warmup,"
                + " or a rate the client and server hold)");
    }

    /**
     * Drifts of p99 and rate within one window.
     *
     * @param p99      the window's p99 with its interval; null without requests
     * @param requests the window's requests
     * @param length   the window's length, s
     */
    public static List<Finding> windowDrift(int window, List<SecondSummary> seconds, LatencyInterval p99, long requests,
                                            double length) {
        List<Finding> out = new ArrayList<>();
        List<SecondSummary> whole = seconds.stream().filter(SecondSummary::whole).toList();
        List<SecondSummary> sound = whole.stream().filter(SecondSummary::p99Sound).toList();
        if (p99 != null && sound.size() >= MIN_DRIFT_SECONDS) {
            Trend t = Trend.of(logP99(sound));
            double first = Math.exp(t.first());
            double last = Math.exp(t.last());
            boolean beyond = outside(first, p99.low(), p99.high()) || outside(last, p99.low(), p99.high());
            if (t.p() < DRIFT_ALPHA && bigP99Change(t) && beyond) {
                out.add(new Finding(Finding.Kind.P99_DRIFT, window, "p99 " + movedNanos(first, last)
                        + " within the window, beyond its interval " + HumanUnits.bounds(p99.value(), p99.low(), p99.high()) + " (Mann-Kendall " + p(t.p()) + ")"));
            }
        }
        if (whole.size() >= MIN_DRIFT_SECONDS && requests > 0 && length > 0) {
            double[] rates = whole.stream().mapToDouble(SecondSummary::rate).toArray();
            Trend t = Trend.of(rates);
            double spread = Z95 * Math.sqrt(requests) / length;
            double rate = requests / length;
            boolean beyond = outside(t.first(), rate - spread, rate + spread) || outside(t.last(), rate - spread, rate + spread);
            if (t.p() < DRIFT_ALPHA && bigRateChange(t, rates) && beyond) {
                out.add(new Finding(Finding.Kind.RATE_DRIFT, window, "the rate " + movedRate(t.first(), t.last())
                        + " within the window, beyond its interval [" + group(rate - spread) + ", " + group(rate + spread)
                        + "] (Mann-Kendall " + p(t.p()) + ")"));
            }
        }
        return out;
    }

    private static double[] logP99(List<SecondSummary> seconds) {
        return seconds.stream().mapToDouble(s -> Math.log(Math.max(1, s.p99()))).toArray();
    }

    private static boolean bigP99Change(Trend t) {
        double ratio = Math.exp(t.last() - t.first());
        return ratio >= P99_CHANGE || ratio <= 1 / P99_CHANGE;
    }

    private static boolean bigRateChange(Trend t, double[] rates) {
        double median = Trend.median(rates.clone());
        return median > 0 && Math.abs(t.last() - t.first()) >= RATE_CHANGE * median;
    }

    private static boolean outside(double v, double low, double high) {
        return v < low || v > high;
    }

    private static String movedNanos(double from, double to) {
        return (to > from ? "rose" : "fell") + " from " + HumanUnits.latency(Math.round(from)) + " to "
                + HumanUnits.latency(Math.round(to));
    }

    private static String movedRate(double from, double to) {
        return (to > from ? "rose" : "fell") + " from " + group(from) + "/s to " + group(to) + "/s";
    }

    private static String group(double v) {
        return String.format(Locale.ROOT, "%,d", Math.round(v));
    }

    /** A p-value as the report writes it: {@code p = 0.0003}, {@code p < 0.0001}. */
    static String p(double p) {
        return p < 0.0001 ? "p < 0.0001" : String.format(Locale.ROOT, "p = %.4f", p);
    }
}
