package io.fluxperf.engine.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * A workload's rate in steps (rpc-perf's {@code [workload.ratelimit]} ramp): from {@code start}
 * to {@code end} by {@code step} requests/s, each step held for {@code interval}; the steps in
 * order ({@link Ramp#LINEAR}) or shuffled; after the last step the rate stays
 * ({@link Completion#STABLE}), starts over ({@link Completion#LOOP}) or comes back down step by step
 * and goes up again ({@link Completion#MIRROR}).
 *
 * @param start requests per second of the first step (above 0)
 * @param end   the last step's rate at most (at least {@code start})
 * @param step  requests per second between two steps (above 0)
 */
public record RateRamp(double start, double end, double step, Duration interval, Ramp ramp, Completion completion) {
    /** The order of the steps. */
    public enum Ramp {
        LINEAR, SHUFFLED;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** What comes after the last step. */
    public enum Completion {
        STABLE, LOOP, MIRROR;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** More steps than this is a mistake (a step of 1 over a range of millions), not a ramp. */
    public static final int MAX_STEPS = 10_000;

    public RateRamp {
        if (!(start > 0) || Double.isInfinite(start)) {
            throw new IllegalArgumentException("start must be a rate above 0, not " + number(start));
        }
        if (start > end) {
            throw new IllegalArgumentException("start (" + number(start) + ") is above end (" + number(end) + ")");
        }
        if (end > RateLimits.MAX) {
            throw new IllegalArgumentException("end must be at most 1,000,000,000 requests/s (one a nanosecond), not "
                    + number(end));
        }
        if (!(step > 0)) {
            throw new IllegalArgumentException("step must be above 0, not " + number(step));
        }
        if (interval == null || interval.isZero() || interval.isNegative()) {
            throw new IllegalArgumentException("interval must be above 0");
        }
        if ((end - start) / step + 1 > MAX_STEPS) {
            throw new IllegalArgumentException("from " + number(start) + " to " + number(end) + " by " + number(step)
                    + " makes more than " + MAX_STEPS + " steps");
        }
        if (ramp == null) {
            ramp = Ramp.LINEAR;
        }
        if (completion == null) {
            completion = Completion.STABLE;
        }
    }

    /**
     * Parses {@code --ramp START:END:STEP:INTERVAL} (interval in seconds or with a unit: 2, 500ms).
     *
     * @throws IllegalArgumentException with the reason, for the flag's message
     */
    public static RateRamp parse(String text) {
        String[] parts = text.split(":", -1);
        if (parts.length != 4) {
            throw new IllegalArgumentException("expected START:END:STEP:INTERVAL, e.g. 10000:40000:10000:2s, not '" + text + "'");
        }
        double start = rate(parts[0], "START");
        double end = rate(parts[1], "END");
        double step = rate(parts[2], "STEP");
        Duration interval;
        try {
            interval = DurationParser.parse(parts[3].strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("INTERVAL: " + e.getMessage());
        }
        return new RateRamp(start, end, step, interval, Ramp.LINEAR, Completion.STABLE);
    }

    private static double rate(String s, String what) {
        try {
            double v = Double.parseDouble(s.strip());
            if (!Double.isFinite(v)) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " must be a number of requests per second, not '" + s + "'");
        }
    }

    /** The same ramp with another order or ending. */
    public RateRamp with(Ramp r, Completion c) {
        return new RateRamp(start, end, step, interval, r, c);
    }

    /** The same ramp with every rate times {@code factor} (a workload's share of a run's ramp). */
    public RateRamp scaled(double factor) {
        return new RateRamp(start * factor, end * factor, step * factor, interval, ramp, completion);
    }

    /** The rates of one pass, in the order they run (shuffled by {@code seed} when asked). */
    public List<Double> steps(long seed) {
        List<Double> out = new ArrayList<>();
        int n = (int) Math.floor((end - start) / step + 1e-9) + 1;
        for (int i = 0; i < n; i++) {
            out.add(start + i * step);
        }
        if (ramp == Ramp.SHUFFLED) {
            java.util.Collections.shuffle(out, new Random(seed));
        }
        return out;
    }

    /**
     * The rates of the steps a report shows one window each for: one pass, and with
     * {@link Completion#MIRROR} the way back down too (its last step once).
     */
    public List<Double> reportedSteps(long seed) {
        List<Double> up = steps(seed);
        if (completion != Completion.MIRROR) {
            return up;
        }
        List<Double> both = new ArrayList<>(up);
        for (int i = up.size() - 2; i >= 0; i--) {
            both.add(up.get(i));
        }
        return both;
    }

    /** The rate of step {@code k} (0-based, counted from the ramp's start without end). */
    public double rateOfStep(List<Double> pass, long k) {
        int n = pass.size();
        if (k < n) {
            return pass.get((int) k);
        }
        return switch (completion) {
            case STABLE -> pass.get(n - 1);
            case LOOP -> pass.get((int) (k % n));
            case MIRROR -> {
                if (n == 1) {
                    yield pass.get(0);
                }
                long period = 2L * (n - 1); // up n-1 steps, down n-1 steps
                int at = (int) (k % period);
                yield pass.get(at < n ? at : (int) (period - at));
            }
        };
    }

    /** rpc-perf's words: {@code 10000 to 40000 by 10000 every 2 s, linear, then stable}. */
    public String describe() {
        return number(start) + " to " + number(end) + " by " + number(step) + " every "
                + DurationParser.format(interval) + ", " + ramp.label() + ", then " + completion.label();
    }

    private static String number(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }
}
